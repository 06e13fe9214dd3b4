import CEGL
import CGL
import CSDL2
import CSDL2TTF
import DecibarCore

/// SDL2, opened on first use (see CLoader.h).
let sdlLibrary = LoadedLibrary<DecibarSDL> { decibar_sdl_load($0, $1) }
var sdlFunctions: DecibarSDL { sdlLibrary.table! }

/// libX11, opened on first use (see CLoader.h).
let x11Library = LoadedLibrary<DecibarX11> { decibar_x11_load($0, $1) }
var x11Functions: DecibarX11 { x11Library.table! }

/// libXfixes and libXrandr, opened on first use: a desktop layer's input shape and its monitor.
let xfixesLibrary = LoadedLibrary<DecibarXFixes> { decibar_xfixes_load($0, $1) }
let xrandrLibrary = LoadedLibrary<DecibarXRandR> { decibar_xrandr_load($0, $1) }

/// SDL2_ttf, opened on first use (see CLoader.h).
let ttfLibrary = LoadedLibrary<DecibarTTF> { decibar_ttf_load($0, $1) }
var ttfFunctions: DecibarTTF { ttfLibrary.table! }

/// EGL, opened on first use (see CLoader.h).
let eglLibrary = LoadedLibrary<DecibarEGL> { decibar_egl_load($0, $1) }
var eglFunctions: DecibarEGL { eglLibrary.table! }

/// OpenGL, opened on first use (see CLoader.h).
let glLibrary = LoadedLibrary<DecibarGL> { decibar_gl_load($0, $1) }
var glFunctions: DecibarGL { glLibrary.table! }
