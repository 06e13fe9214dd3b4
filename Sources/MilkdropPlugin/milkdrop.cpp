// The C interface of decibar_milkdrop.h over libprojectM 3.1.12 (see there).
#include "decibar_milkdrop.h"

#include <libprojectM/projectM.hpp>

#include <atomic>
#include <cstdio>
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

// What the library writes to std::cerr and std::cout while it is in use goes here instead of the
// terminal, for the caller to report in its own words.
class CapturedStreams {
public:
    CapturedStreams() : error_(std::cerr.rdbuf(text_.rdbuf())), output_(std::cout.rdbuf(text_.rdbuf())) {}
    ~CapturedStreams() {
        std::cerr.rdbuf(error_);
        std::cout.rdbuf(output_);
    }
    std::string text() const { return text_.str(); }

private:
    std::stringstream text_;
    std::streambuf *error_;
    std::streambuf *output_;
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
                                          const char *data_dir, unsigned seed, char *error, int error_size) {
    CapturedStreams captured;
    try {
        projectM::Settings settings;
        settings.meshX = mesh_x;
        settings.meshY = mesh_y;
        settings.fps = fps;
        settings.windowWidth = width;
        settings.windowHeight = height;
        settings.datadir = data_dir ? data_dir : "";
        settings.presetURL = settings.datadir + "/presets";
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

int decibar_milkdrop_load_preset(decibar_milkdrop *milkdrop, const char *path, char *error, int error_size) {
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
    CapturedStreams captured;
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
