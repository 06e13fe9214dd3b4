import ArgumentParser
import DecibarApp

extension Decibar {
    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what each key does in a window: every binding in effect, per context.",
            discussion: CommandHelp.keys)

        @OptionGroup var config: ConfigFileOption

        func run() throws {
            writeBytes(Array(KeyBindings(try config.load().keys).listingText().utf8))
        }
    }
}
