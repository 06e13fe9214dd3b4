// The C interface of decibar_milkdrop.h over libprojectM 3.1.12 (see there).
#include "decibar_milkdrop.h"

#include <libprojectM/projectM.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <dlfcn.h>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <pthread.h>
#include <sstream>
#include <string>
#include <sys/time.h>

// libprojectM 3.1 reads every animation time through this exported pointer (its timer.h, which
// Debian does not ship): set, it replaces gettimeofday.
extern "C" {
typedef int (*decibar_gettimeofday)(struct timeval *, struct timezone *);
extern decibar_gettimeofday pprojectm_gettimeofday;
}

// libprojectM 3.1 keeps the worker thread of the engine made last in this exported global and
// joins whatever it holds when any engine is destroyed (projectM.cpp, USE_THREADS): with two
// engines, each must be handed its own thread to join (see destroy).
extern pthread_t thread;

namespace {

std::atomic<long long> clock_microseconds{0};

int virtual_time(struct timeval *now, struct timezone *) {
    long long value = clock_microseconds.load(std::memory_order_relaxed);
    if (value < 0) value = 0;
    now->tv_sec = static_cast<time_t>(value / 1000000);
    now->tv_usec = static_cast<suseconds_t>(value % 1000000);
    return 0;
}

void copy_text(const std::string &text, char *destination, int size) {
    if (!destination || size <= 0) return;
    std::snprintf(destination, static_cast<size_t>(size), "%s", text.c_str());
}

// The library's last line of complaint, without the line break.
std::string last_line(const std::string &text) {
    std::string trimmed = text;
    while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) trimmed.pop_back();
    size_t start = trimmed.rfind('\n');
    return start == std::string::npos ? trimmed : trimmed.substr(start + 1);
}

// The textures a preset's shaders name that the library found nowhere, each once: it says
// "Texture loading error for: NAME" for each sampler.
std::string missing_textures(const std::string &said) {
    static const std::string marker = "Texture loading error for: ";
    std::string names;
    std::istringstream lines(said);
    std::string line;
    while (std::getline(lines, line)) {
        size_t at = line.find(marker);
        if (at == std::string::npos) continue;
        std::string name = line.substr(at + marker.size());
        while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
        // "fw_clouds" is clouds, filtered and wrapped: the file is named without the prefix.
        if (name.size() > 3 && (name[0] == 'f' || name[0] == 'p') && (name[1] == 'w' || name[1] == 'c') && name[2] == '_')
            name = name.substr(3);
        if (name.empty() || ("\n" + names).find("\n" + name + "\n") != std::string::npos) continue;
        names += name + "\n";
    }
    if (!names.empty()) names.pop_back();
    return names;
}

// What the library writes while it is in use goes here instead of the terminal, for the caller
// to report in its own words: std::cerr and std::cout, and C's stdout, where its shader translator
// prints (glibc lets `stdout` be set; decibar writes its own output to the descriptor, so a video
// written to standard output is never mixed with the library's complaints).
class CapturedStreams {
public:
    // `c_stdout`: C's stdout too (a memory stream made and freed: not for every frame).
    explicit CapturedStreams(bool c_stdout = true)
        : error_(std::cerr.rdbuf(text_.rdbuf())), output_(std::cout.rdbuf(text_.rdbuf())) {
        if (!c_stdout) return;
        std::fflush(stdout);
        memory_ = open_memstream(&buffer_, &length_);
        if (memory_) {
            saved_stdout_ = stdout;
            stdout = memory_;
        }
    }
    ~CapturedStreams() {
        std::cerr.rdbuf(error_);
        std::cout.rdbuf(output_);
        if (memory_) {
            stdout = saved_stdout_;
            std::fclose(memory_);
        }
        std::free(buffer_);
    }
    std::string text() {
        std::string said = text_.str();
        if (memory_ && std::fflush(memory_) == 0 && buffer_) said += std::string(buffer_, length_);
        return said;
    }

private:
    std::stringstream text_;
    std::streambuf *error_;
    std::streambuf *output_;
    FILE *memory_ = nullptr;
    FILE *saved_stdout_ = nullptr;
    char *buffer_ = nullptr;
    size_t length_ = 0;
};

// Hears whether a switch worked: the library only says so through these virtual methods.
class Engine : public projectM {
public:
    Engine(const Settings &settings) : projectM(settings, FLAG_DISABLE_PLAYLIST_LOAD) {}
    void presetSwitchedEvent(bool, size_t) const override { switched_ = true; }
    void presetSwitchFailedEvent(bool, unsigned int, const std::string &message) const override {
        failed_ = true;
        reason_ = message;
    }
    void clearEvents() const {
        switched_ = false;
        failed_ = false;
        reason_.clear();
    }
    bool switched() const { return switched_; }
    bool failed() const { return failed_; }

private:
    mutable bool switched_ = false;
    mutable bool failed_ = false;
    mutable std::string reason_;
};

} // namespace

// libprojectM 3.1's destructor frees the preset factory (with the preset loader that owns it)
// before the presets it made, and each preset's destructor then writes into the freed factory
// (MilkdropPresetFactory::releasePreset): a heap corruption found later, as "corrupted
// double-linked list" when the window closes. So the loader is taken from the engine before it is
// destroyed and destroyed after it, its presets gone by then. It is a private member: reached by
// the rule that an explicit instantiation's template arguments are not access-checked.
namespace {

template <typename Tag, typename Tag::type Member>
struct Reach {
    friend typename Tag::type member(Tag) { return Member; }
};

struct LoaderOf {
    using type = PresetLoader *projectM::*;
    friend type member(LoaderOf);
};

template struct Reach<LoaderOf, &projectM::m_presetLoader>;

// PresetLoader's destructor, from the library (Debian ships no header declaring the class).
void destroy_loader(PresetLoader *loader) {
    using Destructor = void (*)(PresetLoader *);
    static Destructor destructor = [] {
        void *library = dlopen("libprojectM.so.3", RTLD_NOW | RTLD_NOLOAD);
        return library ? reinterpret_cast<Destructor>(dlsym(library, "_ZN12PresetLoaderD1Ev")) : nullptr;
    }();
    // Without it the loader is left (a leak, never a corruption).
    if (!destructor) return;
    destructor(loader);
    ::operator delete(static_cast<void *>(loader));
}

// Destroys an engine with its presets before their factory.
void delete_engine(Engine *engine) {
    if (!engine) return;
    PresetLoader *&held = engine->*member(LoaderOf());
    PresetLoader *loader = held;
    held = nullptr;
    try {
        delete engine;
    } catch (...) {
    }
    if (loader) destroy_loader(loader);
}

} // namespace

// libprojectM 3.1's parser takes a line for the rest of the equation before it when their names
// agree but for the numbers that end them (Parser::wrapsToNextLine: "per_frame_2" goes on with
// "per_frame_1"). When that name was empty or only digits (the parser starting again after an
// error, as in "x=(=1"), it compared as many of its characters as the next line's name has, and
// that name runs to the next '=' in the file: a read past the end of the string, of up to the
// whole file. The same answer without it: a name of digits or nothing matches no line (the
// library's comparison then differs in length whatever the bytes it read). Defined here, it is
// used in the library's place: the library calls it through its procedure linkage table, and the
// plug-in comes before the library in the order the loader looks for symbols.
class Parser {
public:
    static std::string lastLinePrefix;
    static bool wrapsToNextLine(const std::string &line);
};

bool Parser::wrapsToNextLine(const std::string &line) {
    static const char digits[] = "0123456789";
    size_t last = lastLinePrefix.find_last_not_of(digits);
    size_t end = line.find_last_not_of(digits);
    if (last == std::string::npos || end != std::min(last, line.size())) return false;
    return line.compare(0, end, lastLinePrefix, 0, end) == 0;
}

struct decibar_milkdrop {
    Engine *engines[2] = {nullptr, nullptr};
    // Each engine's worker thread, read from the library's global right after it was made.
    pthread_t workers[2] = {};
    projectM::Settings settings;
    unsigned seed = 0;
};

namespace {

void *ends_at_once(void *) { return nullptr; }

Engine *make_engine(decibar_milkdrop &milkdrop, int index) {
    auto *engine = new Engine(milkdrop.settings);
    milkdrop.engines[index] = engine;
    milkdrop.workers[index] = thread;
    // Past its duration (at most 60 s) the library would move on by itself.
    engine->setPresetLock(true);
    // The constructor seeded rand() from the time of day: the sequence starts again from the
    // seed (the engines share it, drawing in the same order every frame).
    std::srand(milkdrop.seed);
    return engine;
}

// The engine asked for, the second made on its first use; null with a reason when it cannot be.
Engine *engine_at(decibar_milkdrop *milkdrop, int index, char *error, int error_size) {
    if (!milkdrop || index < 0 || index > 1) {
        copy_text("no such engine", error, error_size);
        return nullptr;
    }
    if (milkdrop->engines[index]) return milkdrop->engines[index];
    CapturedStreams captured;
    try {
        return make_engine(*milkdrop, index);
    } catch (const std::exception &failure) {
        copy_text(std::string("libprojectM did not start a second engine: ") + failure.what(), error, error_size);
    } catch (...) {
        copy_text("libprojectM did not start a second engine: " + last_line(captured.text()), error, error_size);
    }
    return nullptr;
}

} // namespace

extern "C" {

void decibar_milkdrop_set_clock(long long microseconds) {
    clock_microseconds.store(microseconds, std::memory_order_relaxed);
    pprojectm_gettimeofday = virtual_time;
}

decibar_milkdrop *decibar_milkdrop_create(int width, int height, int mesh_x, int mesh_y, int fps,
                                          const char *data_dir, const char *texture_dir, unsigned seed,
                                          char *error, int error_size) {
    CapturedStreams captured;
    try {
        projectM::Settings settings;
        settings.meshX = mesh_x;
        settings.meshY = mesh_y;
        settings.fps = fps;
        settings.windowWidth = width;
        settings.windowHeight = height;
        settings.datadir = data_dir ? data_dir : "";
        // With the playlist off, the library reads this folder only for textures: its third
        // place to look, after the data's presets/ and textures/.
        settings.presetURL = texture_dir && *texture_dir ? std::string(texture_dir) : settings.datadir + "/presets";
        // Decibar chooses every preset and when it changes; the library never switches by itself.
        settings.presetDuration = 1000000;
        settings.smoothPresetDuration = 1;
        settings.hardcutEnabled = false;
        settings.shuffleEnabled = false;
        settings.easterEgg = 0;
        auto *milkdrop = new decibar_milkdrop;
        milkdrop->settings = settings;
        milkdrop->seed = seed;
        try {
            make_engine(*milkdrop, 0);
        } catch (...) {
            delete milkdrop;
            throw;
        }
        return milkdrop;
    } catch (const std::exception &failure) {
        copy_text(std::string("libprojectM did not start: ") + failure.what(), error, error_size);
    } catch (...) {
        copy_text("libprojectM did not start: " + last_line(captured.text()), error, error_size);
    }
    return nullptr;
}

int decibar_milkdrop_add_engine(decibar_milkdrop *milkdrop, char *error, int error_size) {
    return engine_at(milkdrop, 1, error, error_size) ? 1 : 0;
}

void decibar_milkdrop_destroy(decibar_milkdrop *milkdrop) {
    if (!milkdrop) return;
    CapturedStreams captured;
    if (!milkdrop->engines[1]) {
        delete_engine(milkdrop->engines[0]);
        delete milkdrop;
        return;
    }
    // Both workers wait on one condition of the library's, and an engine's destructor wakes one
    // of them (either) and then joins the thread in the global. So each destructor is given a
    // thread that ends at once to join; after both, each worker has been woken to end, and is
    // joined here.
    bool joined[2] = {false, false};
    for (int index = 0; index < 2; index++) {
        pthread_t stand_in;
        if (pthread_create(&stand_in, nullptr, ends_at_once, nullptr) == 0) {
            thread = stand_in;
        } else {
            // No thread to spare: the destructor joins this engine's own worker (which may not be
            // the one it wakes; the process is then short of threads anyway).
            thread = milkdrop->workers[index];
            joined[index] = true;
        }
        delete_engine(milkdrop->engines[index]);
    }
    for (int index = 0; index < 2; index++)
        if (!joined[index]) pthread_join(milkdrop->workers[index], nullptr);
    delete milkdrop;
}

void decibar_milkdrop_resize(decibar_milkdrop *milkdrop, int width, int height) {
    if (!milkdrop || width <= 0 || height <= 0) return;
    CapturedStreams captured;
    milkdrop->settings.windowWidth = width;
    milkdrop->settings.windowHeight = height;
    for (Engine *engine : milkdrop->engines) {
        if (!engine) continue;
        try {
            engine->projectM_resetGL(width, height);
        } catch (...) {
        }
    }
}

int decibar_milkdrop_load_preset(decibar_milkdrop *milkdrop, int index, const char *path, char *error, int error_size,
                                 char *missing, int missing_size) {
    copy_text("", missing, missing_size);
    if (!path) return 0;
    Engine *made = engine_at(milkdrop, index, error, error_size);
    if (!made) return 0;
    CapturedStreams captured;
    Engine &engine = *made;
    try {
        // A playlist of this one preset: the library's own choosing has nothing else to pick.
        engine.clearPlaylist();
        std::string url(path);
        std::string name = url.substr(url.rfind('/') + 1);
        engine.addPresetURL(url, name, RatingList(TOTAL_RATING_TYPES, 3));
        engine.clearEvents();
        engine.selectPreset(0, true);
    } catch (const std::exception &failure) {
        copy_text(failure.what(), error, error_size);
        return 0;
    } catch (...) {
        copy_text("the library failed on it", error, error_size);
        return 0;
    }
    std::string said = captured.text();
    // Said whether or not it loaded: a shader that samples a missing texture does not compile.
    copy_text(missing_textures(said), missing, missing_size);
    if (!engine.switched() || engine.failed()) {
        copy_text(said.empty() ? "it did not load" : last_line(said), error, error_size);
        return 0;
    }
    // The preset loaded but a shader of it did not compile: it would draw wrongly.
    if (said.find("problem setting pipeline") != std::string::npos) {
        copy_text(last_line(said), error, error_size);
        return 0;
    }
    return 1;
}

void decibar_milkdrop_add_audio(decibar_milkdrop *milkdrop, const float *stereo, int frames) {
    if (!milkdrop || !stereo || frames <= 0) return;
    for (Engine *engine : milkdrop->engines)
        if (engine) engine->pcm()->addPCMfloat_2ch(stereo, frames * 2);
}

int decibar_milkdrop_render(decibar_milkdrop *milkdrop, int index, char *error, int error_size) {
    if (!milkdrop || index < 0 || index > 1 || !milkdrop->engines[index]) {
        copy_text("no such engine", error, error_size);
        return 0;
    }
    // Shaders are translated when a preset loads, not while drawing.
    CapturedStreams captured(false);
    try {
        milkdrop->engines[index]->renderFrame();
    } catch (const std::exception &failure) {
        copy_text(failure.what(), error, error_size);
        return 0;
    } catch (...) {
        copy_text("the library failed drawing: " + last_line(captured.text()), error, error_size);
        return 0;
    }
    return 1;
}

} // extern "C"
