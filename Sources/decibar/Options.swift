import ArgumentParser
import DecibarApp
import DecibarCore

/// An output path checked as the command line is read: a bad one is a usage error (status 2).
func checkOutput(_ path: String, option: String, kind: OutputPath.Kind, inputs: [String] = []) throws {
    do {
        try OutputPath.check(path, option: option, kind: kind, inputs: inputs)
    } catch {
        throw ValidationError(error.description)
    }
}
