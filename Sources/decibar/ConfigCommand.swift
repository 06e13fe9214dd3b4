import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation

extension Decibar {
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write, check or show the config file ($XDG_CONFIG_HOME/decibar/config.toml).",
            subcommands: [Init.self, Check.self, Show.self, Doc.self])

        struct Init: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Write an annotated config file with every key at its default (commented out).")

            @Argument(help: ArgumentHelp("Where to write it (default $XDG_CONFIG_HOME/decibar/config.toml; - for standard output).", valueName: "file"))
            var file: String?

            @Flag(name: .long, help: "Replace a file that exists.")
            var force = false

            func run() throws {
                let text = Configuration().text(effective: false)
                if file == "-" {
                    writeBytes(Array(text.utf8))
                    return
                }
                let path = file ?? ConfigFile.defaultPath()
                if FileManager.default.fileExists(atPath: path) && !force {
                    throw CommandFailure(message: "\(path) exists; --force replaces it")
                }
                try ConfigFile.write(text, to: path)
                writeLine("wrote \(path)")
            }
        }

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Check a config file: each problem as FILE:LINE:COLUMN: message (FILE: message for the whole file); status 2 if there is any.")

            @Argument(help: ArgumentHelp("The file (default $XDG_CONFIG_HOME/decibar/config.toml).", valueName: "file"))
            var file: String?

            func run() throws {
                let path = file ?? ConfigFile.defaultPath()
                do {
                    _ = try ConfigFile.load(path, mustExist: true)
                } catch {
                    for problem in error.problems { writeLine(problem.description) }
                    throw CommandFailure.silent(status: 2)
                }
                writeLine("\(path): ok")
            }
        }

        struct Doc: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print every key, its option, range, default and meaning as Markdown (docs/config.md).")

            func run() throws {
                writeBytes(Array(ConfigSchema.reference().utf8))
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the values in force (the defaults with the file's values over them) as TOML.")

            @OptionGroup var config: ConfigFileOption

            func run() throws {
                writeBytes(Array(try config.load().text(effective: true).utf8))
            }
        }
    }
}
