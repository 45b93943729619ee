import Foundation
import Testing
import TetherLibC

/// `FileSystem` and `Environment` answer as `FileManager` and `ProcessInfo`, which the
/// shipped code no longer uses.
@Suite struct FileSystemTests {
    /// A fresh folder with a file, a subfolder and links, removed afterwards.
    static func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-fs-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("bytes\n\u{0}\u{FF}".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "file")
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: "nowhere")
        try body(folder)
    }

    @Test func contentsAreTheFilesBytes() throws {
        try Self.withFolder { folder in
            #expect(
                FileSystem.contents(atPath: folder + "/file")
                    == [UInt8](FileManager.default.contents(atPath: folder + "/file")!))
            #expect(FileSystem.contents(atPath: folder + "/link") == Array("bytes\n\u{0}\u{FF}".utf8))
            #expect(FileSystem.contents(atPath: folder + "/sub") == nil)
            #expect(FileSystem.contents(atPath: folder + "/missing") == nil)
        }
    }

    @Test func aLargeFileIsReadWhole() throws {
        try Self.withFolder { folder in
            let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/large"))
            #expect(FileSystem.contents(atPath: folder + "/large") == bytes)
        }
    }

    /// Lines that cross the 1 MiB pieces `forEachLine` reads, empty lines, and a last
    /// line without its LF come out as `split` gives them, with nothing lost or joined.
    @Test func forEachLineGivesEveryLineAcrossPieces() throws {
        try Self.withFolder { folder in
            var text = ""
            for index in 0..<60_000 {
                text += index % 97 == 0 ? "\n" : "line \(index) " + String(repeating: "x", count: index % 61) + "\n"
            }
            text += "last without LF"
            #expect(text.utf8.count > 2 << 20)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/lines"))
            let descriptor = open(folder + "/lines", O_RDONLY)
            defer { close(descriptor) }
            var lines: [String] = []
            #expect(FileSystem.forEachLine(descriptor) { lines.append(String(decoding: $0, as: UTF8.self)) })
            #expect(lines == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    @Test func entriesLinksAndKinds() throws {
        try Self.withFolder { folder in
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(FileSystem.entries(ofDirectory: folder)?.sorted() == names)
            #expect(FileSystem.entries(ofDirectory: folder + "/file") == nil)
            #expect(FileSystem.destinationOfSymbolicLink(atPath: folder + "/dangling") == "nowhere")
            #expect(FileSystem.destinationOfSymbolicLink(atPath: folder + "/file") == nil)
            #expect(FileSystem.kind(atPath: folder + "/sub") == .directory)
            #expect(FileSystem.kind(atPath: folder + "/link") == .other)
            #expect(FileSystem.kind(atPath: folder + "/dangling") == nil)
        }
    }

    @Test func createDirectoriesMakesEachMissingLevel() throws {
        try Self.withFolder { folder in
            #expect(FileSystem.createDirectories(atPath: folder + "/a/b/c"))
            #expect(FileSystem.kind(atPath: folder + "/a/b/c") == .directory)
            #expect(FileSystem.createDirectories(atPath: folder + "/a/b/c"))
            #expect(!FileSystem.createDirectories(atPath: folder + "/file/d"))
        }
    }

    @Test func resolvingSymbolicLinksIsRealpathOrThePathAsGiven() throws {
        try Self.withFolder { folder in
            let real = URL(fileURLWithPath: folder + "/file").resolvingSymlinksInPath().path
            #expect(FileSystem.resolvingSymbolicLinks(folder + "/sub/../link") == real)
            #expect(FileSystem.resolvingSymbolicLinks("/no/such/place") == "/no/such/place")
        }
    }

    @Test func theEnvironmentIsProcessInfos() {
        #expect(Environment.variables == ProcessInfo.processInfo.environment)
        #expect(FileSystem.currentDirectory == FileManager.default.currentDirectoryPath)
    }
}
