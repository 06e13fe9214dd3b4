// The C interface of decibar_milkdrop.h over libprojectM 3.1.12 (see there).
#include "decibar_milkdrop.h"

#include <libprojectM/projectM.hpp>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/time.h>

// libprojectM 3.1 reads every animation time through this exported pointer (its timer.h, which
// Debian does not ship): set, it replaces gettimeofday.
extern "C" {
typedef int (*decibar_gettimeofday)(struct timeval *, struct timezone *);
extern decibar_gettimeofday pprojectm_gettimeofday;
}

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

struct decibar_milkdrop {
    Engine *engine;
};

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
        auto *milkdrop = new decibar_milkdrop{new Engine(settings)};
        // Past its duration (at most 60 s) the library would move on by itself.
        milkdrop->engine->setPresetLock(true);
        // The constructor seeded rand() from the time of day.
        std::srand(seed);
        return milkdrop;
    } catch (const std::exception &failure) {
        copy_text(std::string("libprojectM did not start: ") + failure.what(), error, error_size);
    } catch (...) {
        copy_text("libprojectM did not start: " + last_line(captured.text()), error, error_size);
    }
    return nullptr;
}

void decibar_milkdrop_destroy(decibar_milkdrop *milkdrop) {
    if (!milkdrop) return;
    CapturedStreams captured;
    try {
        delete milkdrop->engine;
    } catch (...) {
    }
    delete milkdrop;
}

void decibar_milkdrop_resize(decibar_milkdrop *milkdrop, int width, int height) {
    if (!milkdrop || width <= 0 || height <= 0) return;
    CapturedStreams captured;
    try {
        milkdrop->engine->projectM_resetGL(width, height);
    } catch (...) {
    }
}

int decibar_milkdrop_load_preset(decibar_milkdrop *milkdrop, const char *path, char *error, int error_size,
                                 char *missing, int missing_size) {
    copy_text("", missing, missing_size);
    if (!milkdrop || !path) return 0;
    CapturedStreams captured;
    Engine &engine = *milkdrop->engine;
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
    milkdrop->engine->pcm()->addPCMfloat_2ch(stereo, frames * 2);
}

int decibar_milkdrop_render(decibar_milkdrop *milkdrop, char *error, int error_size) {
    if (!milkdrop) return 0;
    // Shaders are translated when a preset loads, not while drawing.
    CapturedStreams captured(false);
    try {
        milkdrop->engine->renderFrame();
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
