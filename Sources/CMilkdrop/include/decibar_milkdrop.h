// Decibar's Milkdrop plug-in: a C interface over libprojectM 3.1's C++ class, built into its own
// shared object (libdecibar-milkdrop.so) that decibar opens only when a Milkdrop picture is first
// drawn (CMilkdrop). The C++ library, libstdc++ and libGL are then mapped; before, none of them.
//
// Every call but decibar_milkdrop_set_clock is made on the thread whose OpenGL 3.3 context is
// current, the one the instance was made on. Errors and what the library prints are returned as
// text instead of reaching the terminal.
//
// An instance holds one or two engines (`engine` 0 or 1), each showing a preset of its own: the
// second, made on its first use, draws the incoming preset while a transition blends the two.
#ifndef DECIBAR_MILKDROP_H
#define DECIBAR_MILKDROP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct decibar_milkdrop decibar_milkdrop;

// Makes an instance drawing width x height pixels (into the framebuffer bound when rendering),
// with per-vertex equations on a mesh_x x mesh_y grid, telling presets `fps`, finding textures
// under data_dir's presets/ and textures/ and under texture_dir (NULL: none more; a folder's
// subfolders and links are searched too). The C library's random numbers start from `seed`.
// NULL with a reason in `error`.
decibar_milkdrop *decibar_milkdrop_create(int width, int height, int mesh_x, int mesh_y, int fps,
                                          const char *data_dir, const char *texture_dir, unsigned seed,
                                          char *error, int error_size);
void decibar_milkdrop_destroy(decibar_milkdrop *milkdrop);

// Makes the second engine now rather than on its first use: made while the process is young, its
// textures start as zeros, like the first's (made later, they may start as whatever memory they
// were given, which a render must not show). 1, or 0 with a reason.
int decibar_milkdrop_add_engine(decibar_milkdrop *milkdrop, char *error, int error_size);

// The picture's size changed (both engines').
void decibar_milkdrop_resize(decibar_milkdrop *milkdrop, int width, int height);

// `engine` shows the preset at `path` from its next frame (a hard cut). 1 when it loaded and its shaders
// compiled, with the textures it names that were not found in `missing` (names separated by
// "\n", empty when none; the preset draws without them); 0 with the library's reason in
// `error` (the previous preset keeps drawing).
int decibar_milkdrop_load_preset(decibar_milkdrop *milkdrop, int engine, const char *path, char *error, int error_size,
                                 char *missing, int missing_size);

// Interleaved left/right samples heard since the last frame (`frames` pairs), for both engines.
void decibar_milkdrop_add_audio(decibar_milkdrop *milkdrop, const float *stereo, int frames);

// Draws one frame of `engine`'s preset into the framebuffer that is bound. 1, or 0 with a reason.
int decibar_milkdrop_render(decibar_milkdrop *milkdrop, int engine, char *error, int error_size);

// The animation clock every instance reads, in microseconds from any origin. Until it is set,
// the system's clock. Set it before creating an instance and before every frame.
void decibar_milkdrop_set_clock(long long microseconds);

#ifdef __cplusplus
}
#endif

#endif
