import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation
import Testing
@testable import decibar

/// What each command hands the app: an option wins over the config file, the file over the default.
@Suite("Settings precedence")
struct SettingsPrecedenceTests {
    static let file = """
        [display]
        theme = "fire"
        bars = 32
        caps = true
        sensitivity = "off"

        [audio]
        av_offset = 120
        source = "speakers"

        [player]
        loop = "track"
        volume = 60
        rate = 1.5
        scrubber_bar_width = 5
        stream_timeout = 30

        [daemon]
        window = "shown"
        log_level = "debug"
        """

    @Test("play: the defaults when the file sets nothing")
    func playDefaults() throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("empty.toml", "")
        let settings = try #require(try Decibar.parseAsRoot(["play", "a.wav", "--config", config]) as? Decibar.Play).settings()
        #expect(settings.loop == .none && settings.volume == 100 && settings.rateAndPitch == .normal)
        #expect(settings.display.theme == "neon" && settings.display.bars == nil && settings.display.sensitivity == .automatic)
        #expect(settings.scrubber.barWidth == 3 && settings.stream.stallTimeout == 10)
    }

    @Test("play: the file over the defaults")
    func playFile() throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.toml", Self.file)
        let settings = try #require(try Decibar.parseAsRoot(["play", "a.wav", "--config", config]) as? Decibar.Play).settings()
        #expect(settings.loop == .track && settings.volume == 60 && settings.rateAndPitch.rate == 1.5)
        #expect(settings.display.theme == "fire" && settings.display.bars == 32 && settings.display.caps)
        #expect(settings.display.sensitivity == .off)
        #expect(settings.scrubber.barWidth == 5 && settings.stream.stallTimeout == 30)
    }

    @Test("play: options over the file")
    func playOptions() throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.toml", Self.file)
        let command = try Decibar.parseAsRoot(["play", "a.wav", "--config", config, "--theme", "ocean", "--volume", "80", "--loop", "none",
                                               "--no-caps", "--sensitivity", "6", "--scrubber-bar-width", "7", "--stream-timeout", "5",
                                               "--pitch", "-1200", "--noise-floor", "-90"])
        let settings = try #require(command as? Decibar.Play).settings()
        #expect(settings.loop == .none && settings.volume == 80 && settings.rateAndPitch.rate == 1.5)
        #expect(settings.display.theme == "ocean" && settings.display.bars == 32 && !settings.display.caps)
        #expect(settings.display.sensitivity == .fixed(decibels: 6))
        #expect(settings.scrubber.barWidth == 7 && settings.stream.stallTimeout == 5)
        #expect(settings.rateAndPitch.pitch == -1200 && settings.scrubber.noiseFloor == -90, "negative values follow their option")
    }

    @Test("live: the source and the offset from the file, then from options")
    func live() throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.toml", Self.file)
        let fromFile = try #require(try Decibar.parseAsRoot(["live", "--config", config]) as? Decibar.Live).view()
        #expect(fromFile.target == .named("speakers") && fromFile.avOffset == 0.12 && fromFile.display.theme == "fire")
        let command = try Decibar.parseAsRoot(["live", "--config", config, "--source", "mic", "--av-offset", "-50", "--no-autosens", "--bars", "8"])
        let fromOptions = try #require(command as? Decibar.Live).view()
        #expect(fromOptions.target == .named("mic") && fromOptions.avOffset == -0.05 && fromOptions.display.bars == 8)
        #expect(fromOptions.display.sensitivity == .off)
    }

    @Test("daemon: only what its command line says goes over the file (which the daemon reads itself)")
    func daemon() throws {
        let command = try Decibar.parseAsRoot(["daemon", "--config", "/x/config.toml", "--socket", "/x/s", "--theme", "mono",
                                               "--window", "shown", "--log-level", "error", "--scrubber-filter", "average"])
        let settings = try #require(command as? Decibar.Daemon).settings()
        #expect(settings.configPath == "/x/config.toml" && settings.socketPath == "/x/s" && settings.logLevel == "error")
        #expect(settings.overrides.values == [
            ConfigSchema.display.theme.key.path: .string("mono"),
            ConfigSchema.daemon.window.key.path: .string("shown"),
            ConfigSchema.player.scrubberFilter.key.path: .string("average"),
        ])
    }

    @Test("render takes only its command line: a config file never changes a render")
    func renderIgnoresFile() throws {
        let help = Decibar.helpMessage(for: Decibar.Render.self, columns: 200)
        #expect(!help.contains("--config"))
    }

    @Test("a broken config file is one line naming its line and column, status 2")
    func brokenFile() throws {
        let folder = try TemporaryFolder()
        let config = try folder.write("config.toml", "[display]\ntheme = \"fire\"\nbars = 0\n")
        do {
            _ = try #require(try Decibar.parseAsRoot(["play", "a.wav", "--config", config]) as? Decibar.Play).settings()
            Issue.record("a broken file was taken")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2)
            // Where the key is: line 3, column 1.
            #expect(line == "\(config):3:1: display.bars must be a whole number from 1 to 1024, not 0")
        }
    }

    @Test("a config file named with --config must exist; the default one may not")
    func missingFile() throws {
        do {
            _ = try #require(try Decibar.parseAsRoot(["play", "a.wav", "--config", "/no/such/config.toml"]) as? Decibar.Play).settings()
            Issue.record("a missing --config file was taken")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2 && line?.contains("/no/such/config.toml") == true, "\(line ?? "")")
        }
    }
}
