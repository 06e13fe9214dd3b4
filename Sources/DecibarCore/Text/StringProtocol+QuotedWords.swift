extension StringProtocol {
    /// The words of a line, split at spaces and tabs; "double quotes" keep a word's spaces (a cue
    /// sheet's file name, a preset's name in a key's command).
    public var quotedWords: [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in self {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if (character == " " || character == "\t") && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }
}
