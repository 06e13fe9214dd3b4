extension String {
    /// The text a C library wrote into `buffer`: up to its first NUL, as UTF-8 (bad bytes replaced).
    public init(cMessage buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
