import DecibarCore

/// What each command's `--help` (and so its man page) explains beyond its options: kept here,
/// with the application, so that the command line is only its options and their wiring.
public enum CommandHelp {
    public static let overview = """
        With no command, opens the live window on whatever the computer is playing.
        Run 'decibar COMMAND --help' for each command's options.
        """

    public static var ctl: String {
        VisualCatalog.prepare()
        let modeWords: String = VisualMode.allCases.map(\.rawValue).joined(separator: "|")
        return """
        Commands: status, show, hide, toggle, close, fullscreen (the window); \
        mode next|previous|\(modeWords); shader next; \
        set KEY VALUE, get KEY, cycle KEY (any config key, e.g. 'set theme fire', 'cycle loop'); open [--append] FILE...; \
        play, pause, toggle-pause, stop, seek [+|-]SECONDS|M:SS, next, previous; volume, rate, pitch [+|-]N (rate normal); \
        zoom in|out|FACTOR; chapter next|previous; ab-loop START END (times as for seek), a, b or off; \
        preset next|previous|random|lock|unlock|toggle-lock|toggle-favourite|NAME (alone: the name shown); \
        keys (the key list over the window); stats [toggle]; picker presets|sources|modes|themes|next|close (over the window); reload; quit; \
        or any protocol command by its name with JSON arguments (see docs/protocol.md). A key in the \
        window runs the same words ('decibar keys' lists them).
        Prints one line per reply (--json: the reply's data as JSON). Exit status 0 on success, \
        1 when the daemon refuses (with its reason) or none runs.
        """
    }

    public static var keys: String {
        """
        Each key runs a command in the words of 'decibar ctl'. Bindings hold in every window, while \
        the player shows (play, and the daemon's player), or while a mode shows; the more particular \
        wins. A config file's [keys] section binds a key in every context (k = "mode spectrum", \
        "ctrl+n" = "preset next", x = "" unbinds), [keys.player] and [keys.MODE] in one; this lists \
        the bindings in effect with --config's file or the default one.
        """
    }

    /// The keys of every window and of each mode's own, as the help says them.
    static var windowKeys: String {
        VisualCatalog.prepare()
        let modes: [String] = VisualMode.allCases.map(\.rawValue)
        var text = "Keys: " + KeyBindings.summary(.window)
        text += " (the modes in m's order: " + modes.joined(separator: ", ") + ")"
        for mode in VisualMode.allCases where !mode.keys.isEmpty {
            text += "; while \(mode.rawValue) shows: " + KeyBindings.summary(.mode(mode))
        }
        return text + ". 'decibar keys' lists them; [keys] in the config file changes them."
    }

    public static let daemon = """
        Owns one tap on what the computer plays (following the default output, or only the apps \
        of --app and audio.apps), a player and \
        the window, and listens on a control socket ($XDG_RUNTIME_DIR/decibar/control.sock) for \
        'decibar ctl' and 'decibar levels'. The window starts hidden (--window shown to show it); \
        closing it, q or Esc hide it, and only 'decibar ctl quit' or a signal stops the daemon. \
        With no window shown and no subscriber, nothing listens to the audio and no CPU is used.
        SIGTERM and SIGINT stop it (exit 0, socket removed); SIGHUP reloads the config, as does \
        saving the file. One daemon runs per user: a second one says which runs and exits 1.
        Start it at login with: systemctl --user enable --now decibar
        """

    public static let devices = """
        Marks the default sink and its monitor: the source 'decibar live' listens to when no \
        --source is given. Any name listed here can be passed to --source. Last come the apps \
        playing (application.name, binary, PID, output, playing or paused): --app and \
        --exclude-app take the name or the binary.
        """

    public static let levels = """
        One object per line: {"t": seconds, "channels": N, "rms_db": [..], "peak_db": [..]}.
        Levels are dBFS per channel (floor -160); each line covers every sample since the \
        previous line. Live, t is seconds since start and a line is printed only when audio \
        arrived; status changes (device switched, server gone) are reported on stderr.
        With --file, the file is analyzed as fast as possible and t is the time in the file.
        Live, when a decibar daemon runs, the lines come from its tap (the same lines, no second \
        tap); --standalone opens a tap of its own, as do --source, --app and --exclude-app (the \
        daemon's tap hears what its own config says).
        With --mode spectrum, a first line {"band_edges_hz": [..], "bands": N, "sample_rate": .., \
        "channels": ..} names the bands, then each line is {"t": .., "bands_db": [..]}: band \
        levels (dB, flat for pink noise) as the window's spectrum draws them (band powers \
        averaged over the time each band's width needs, then the bars' rise and fall, held at \
        --floor), all of the first channel's bands low to high, then the second's (at most \
        two channels). --raw gives each line's own analysis of the newest 4096 samples instead.
        With --mode loudness, each line is {"t": .., "momentary_lufs": .., "short_term_lufs": .., \
        "integrated_lufs": .., "loudness_range_lu": .., "true_peak_dbtp": [..]}: EBU R128 \
        loudness (libebur128), null under the -70 LUFS gate, true peaks the highest so far per \
        channel. With --file the last line covers the whole file.
        With --mode beats, a line comes for each beat as soon as it is found, {"t": 12.345, \
        "beat": true, "bpm": 120.02, "confidence": 0.93} (t: when the beat's sound starts, in \
        the file or since start), and a line without "beat" gives the tempo each second \
        without one ("bpm": null until the tempo is known, after about 3 s of music and two \
        beats); --rate is not used. Live, a beat is printed about 20 ms after it sounds.
        For status bars, --format waybar prints one JSON object per line for waybar's custom \
        module ("return-type": "json"): {"text": "▁▃▅▇▅▃▁▁", "percentage": 62, "class": \
        "playing", "tooltip": "L -12.3 dBFS  R -13.0 dBFS"}: --bars glyphs from the spectrum \
        (scaled to the music, like cava's autosens), the louder channel's RMS level on a \
        -60...0 dBFS scale, the class silent (half a second under -60 dBFS), playing or clip \
        (a peak at -0.1 dBFS). --format ascii prints cava's raw ASCII output: --bars values \
        from 0 to --ascii-max, each followed by ';', one frame per line (polybar, scripts). \
        A line equal to the previous one is not repeated. Both work through the daemon too.
        """

    public static let termAbstract = "Draw the bars in the terminal; given files, play them with a waveform scrubber you click or drag to seek."
    public static let termFiles = "Audio files or http:// and https:// addresses to play (none: what the computer plays)."

    public static var term: String {
        """
        Without files: what the computer plays, as live does (--source, --app, --backend). With \
        files: the player, its waveform scrubber in the bottom rows; click or drag on it to seek \
        (heard as you drag), Shift+drag to loop a stretch, the wheel to zoom. The terminal player \
        is a media player on the session bus (playerctl, media keys) as play's window is.
        Bars and spectrum are drawn in eighth blocks, the spectrogram in half blocks, the scope \
        in braille dots and the meter in left blocks, in 24-bit colour where COLORTERM says \
        truecolor (else 256 or 16 colours; none with NO_COLOR). --graphics kitty or sixel (auto: \
        what the terminal answers that it has) draws any mode as real pixels, drawn offscreen \
        (no X or Wayland needed, so over SSH too).
        Only the cells that change are written, inside synchronized output where the terminal \
        has it; a terminal that stops reading drops frames instead of holding up the sound. \
        q, Esc or Ctrl+C leaves the terminal as it was, as SIGTERM and SIGHUP do. Keys: the \
        window's (decibar keys), but those of lists, stats and screenshots.
        """
    }

    public static var live: String {
        """
        Listens to the monitor of the default output (or --source) and follows it when the \
        default output changes. With --app, only those apps are heard: their playback streams, \
        summed (on PipeWire from each one's first sample), followed to any output, and silence \
        while none plays (the window says "waiting for NAME"); --exclude-app leaves apps out. If the audio server goes away, the window stays open, says \
        "waiting for audio server" and reconnects when it returns.
        Bars are shown when the audio is heard: the output's latency is measured from the \
        server and applied; --av-offset adds to it.
        \(windowKeys)
        """
    }

    public static let peaks = """
        One min/max pair per channel for every N samples (version 2 per-channel data, as \
        `audiowaveform --split-channels` writes), readable by peaks.js, wavesurfer and \
        audiowaveform itself. The format follows OUT's extension: .json or .dat. \
        Values are samples scaled to 16 bits (round(x * 32767)); 8-bit data is that / 256.
        Given a .dat or .json overview instead of audio, converts it between the two \
        (keeping its samples per pixel) or between 8 and 16 bits, as audiowaveform does.
        FILE - reads audio piped into standard input (any format FFmpeg reads from a stream), \
        decoded in one pass as it arrives: memory holds the overview, never the audio.
        """

    public static var play: String {
        """
        Plays the files in order through the sound server. The bars follow what you hear \
        (delayed by the stream's latency, so they match the sound); below them, the whole \
        track's waveform fills in while it plays. Click or drag on it to seek; while you drag you \
        hear what is under the pointer (--no-scrub-audio: silence), and it plays on from the drop. \
        Shift-drag marks an A-B loop.
        Keys while the player shows: \(KeyBindings.summary(.player)). \(windowKeys) Media keys and playerctl \
        control it too (MPRIS, on the session bus). The wheel over the scrubber zooms it, and \
        its minimap then shows the whole track (drag it to look elsewhere); chapters are the \
        file's own, or a .cue sheet's beside it; an A-B loop plays from A, sample for sample.
        At the end of the list the window stays open on the last track, stopped; \
        --exit-at-end closes it instead (for scripts). A file that cannot be played is \
        reported and skipped.
        An address plays while it downloads (into $XDG_CACHE_HOME/decibar/streams): it \
        starts once a second of it is decoded, the scrubber shades what has arrived, and a \
        seek beyond that fetches from there. A radio (no length) plays with a "live" label \
        and shows its stream title.
        """
    }

    public static let render = """
        Draws what 'decibar play FILE' shows (the picture of --mode above the scrubber with \
        its moving playhead) without a window or a display: frame k shows the state at \
        k/fps seconds, computed from the file's own samples, the same way every time. The \
        original audio is muxed in. The kind of output follows OUT's extension: .mp4 \
        (H.264 + AAC), .mov (ProRes 4444, with alpha when --background transparent), .webm \
        (VP9 + Opus, alpha allowed), .gif, or a folder (a path ending in /) of PNG frames.
        decibar encodes an .mp4 itself; .mov, .webm, .gif and --captions-track need the \
        ffmpeg program. OUT appears only when the render is complete; an \
        existing file at OUT is replaced then, but never the input, and a folder must be \
        new or empty (nothing in an existing folder is replaced).
        A file with a cover (a cover or folder picture beside it, or art embedded in it) or \
        a title and artist in its tags is composed as a music video: the cover, the title \
        and artist, the bars and a slim scrubber over the cover blurred (--cover, --title, \
        --artist, --backdrop, --progress; --layout radial rings the cover with the bars). Portrait \
        sizes (--size 9:16) stack the cover, the title and the bars. Lyrics or captions \
        (--captions, or a .lrc, .srt or .vtt beside the audio) show on their frames.
        """

    public static let spectrogram = """
        Time runs across the whole file, frequency up a log axis from 20 Hz to 20 kHz, \
        level by color (--colormap) from --spectrogram-floor to 0 dBFS, with the file's \
        name, times and a dB legend around it. Every sample counts: each column is the \
        mean power of the Hann-windowed 4096-point blocks under it, overlapping by half or \
        more. It reads no config file, so a picture is the same on every machine. OUT \
        appears only when complete; an existing file there is replaced, but never the input.
        """

    public static let scale = """
        --factor 2 makes a 10 s file 20 s long (and an octave lower: the samples are \
        spread out, as a tape played slower); 0.5 makes it 5 s long and an octave higher. \
        Each channel is scaled on its own by linear interpolation between neighboring \
        samples, with smoothstep easing when stretching, and the channel layout is kept \
        (a 7.1 file stays 7.1). Integer samples are rounded half to even.
        --keep-pitch changes the duration and keeps the pitch instead, with the Rubber \
        Band Library's offline stretcher (its R3 engine, for 8000 Hz and up): it reads the \
        file twice, once to study it and once to stretch it.
        The format follows OUT's extension: wav, flac, aiff, caf (lossless, at the \
        input's bit depth unless --sample-format says otherwise), m4a, aac, mp4, mp3, ogg \
        or opus; any other extension is written as AAC in an .m4a next to the name given. \
        The sample rate is the input's (opus and mp3 take the nearest rate they allow). \
        Works as a stream with little memory however long the file; OUT appears only \
        when complete. Needs the ffmpeg program.
        """
}
