// swift-tools-version:6.1
// tether — control embedded devices over a serial port (see README.md, docs/).
import PackageDescription

/// How a release build links each executable, for start-up time (docs/PERFORMANCE.md,
/// "Start-up"): libserialport, Lua, libedit (with libbsd and libmd) and libstdc++ from
/// their static archives (`Link/Static`'s linker scripts name them; libtinfo, libm and
/// libc stay shared), libgcc's unwinder static, and a position-dependent executable, so
/// the loader maps three libraries instead of ten and has none of the binary's own
/// 33 000 relative relocations to apply. Debug builds and tests link as before.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-L", String(#filePath.dropLast("Package.swift".count)) + "Link/Static",
            "-Xclang-linker", "-static-libgcc", "-Xclang-linker", "-no-pie",
        ], .when(configuration: .release))
]

let package = Package(
    name: "tether",
    products: [
        .executable(name: "tether", targets: ["tether"]),
        .executable(name: "tether-sim", targets: ["tether-sim"]),
        // The library face (docs/LIBRARY.md): each product's public API is checked
        // against api/ by scripts/api-check and documented by its DocC catalogue. The
        // Model's product holds the transport and transfer modules its API names
        // (`SerialConfiguration`, `SerialError`, `TransferProtocol`), so a client may import them.
        .library(name: "TetherModel", targets: ["TetherModel", "TetherSerial", "TetherTransfer"]),
        .library(name: "TetherPresenter", targets: ["TetherPresenter"]),
        .library(name: "TetherViews", targets: ["TetherViews"]),
        .library(name: "TetherSimulator", targets: ["TetherSimulator"]),
        .library(name: "TetherScript", targets: ["TetherScript"]),
    ],
    targets: [
        // C binding: libserialport from Debian (`apt-get install libserialport-dev`). No
        // `pkgConfig:` for it, Lua or libedit: its `-L` of the system's library folder would
        // come first on the link line, and a release build would find their shared
        // libraries before `Link/Static`'s archives (see `releaseLinking` below).
        .systemLibrary(name: "CLibSerialPort", providers: [.apt(["libserialport-dev"])]),
        // Pseudo-terminal compatibility for libserialport 0.1.1 (see docs/ARCHITECTURE.md).
        .target(name: "CPtyCompat"),
        // What a thread that waits in poll(2) needs (a wake-up pipe, the timeout until a
        // deadline): the port loop, a port's blocking calls, the simulator's serving thread.
        .target(name: "TetherPoll"),
        // The C library's threads, number formatting, files and environment, where
        // Foundation's would link full Foundation (or most of FoundationEssentials):
        // `DedicatedThread`, `CFormat`, `FileSystem`, `Environment`.
        .target(name: "TetherLibC"),
        // JSON documents read without Foundation's JSONDecoder (docs/PERFORMANCE.md): the
        // strict grammar, the parsed tree and a `Decoder` over it.
        .target(name: "TetherJSON"),
        // Typed command-line options, parsing and `--help`, for both executables.
        .target(name: "TetherCommandLine", dependencies: ["TetherLibC"]),
        // Transport: SerialPort over libserialport.
        .target(name: "TetherSerial", dependencies: ["CLibSerialPort", "CPtyCompat", "TetherPoll", "TetherLibC"]),
        // XMODEM and YMODEM as pure state machines (docs/TRANSFERS.md).
        .target(name: "TetherTransfer", dependencies: ["TetherLibC"]),
        // Model: framing, dialects, request queue, events, transfers on the port loop.
        .target(name: "TetherModel", dependencies: ["TetherSerial", "TetherPoll", "TetherTransfer", "TetherLibC"]),
        // Presenter: model events → view state.
        .target(name: "TetherPresenter", dependencies: ["TetherModel", "TetherTransfer", "TetherSerial", "TetherJSON"]),
        // Lua 5.4 from Debian (`apt-get install liblua5.4-dev`), for scripts.
        .systemLibrary(name: "CLua", providers: [.apt(["liblua5.4-dev"])]),
        // Scripts: query files and Lua, run over several devices (the run's Mediator).
        .target(
            name: "TetherScript",
            dependencies: [
                "TetherSerial", "TetherModel", "TetherPresenter", "CLua", "TetherTransfer", "TetherLibC",
                "TetherCommandLine",
            ]),
        // terminfo (libtinfo) from Debian (`apt-get install libncurses-dev`), for the live
        // dashboard. No `pkgConfig:` here: `tinfo.pc` only adds -D flags SwiftPM refuses,
        // and the header and library are on the default paths.
        .systemLibrary(name: "CTermInfo"),
        // Puts a full-screen view's terminal back when tether dies of a signal (C: a
        // signal handler must be async-signal-safe).
        .target(name: "CScreenRestore"),
        // Tells a SIGABRT sent from outside (`kill -ABRT`) from tether's own abort, which
        // stays a crash report (C: a signal handler must be async-signal-safe).
        .target(name: "CAbortOrigin"),
        .target(name: "CSignalRecord"),
        // inih, the INI parser, from Debian (`apt-get install libinih-dev`): the named
        // devices' configuration file (docs/CONFIG.md).
        .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),
        // Device settings: the device options (serial, pacing, dialect) declared once, in
        // layers — a named device's section of the configuration file, a device
        // description file, the command line, inline settings. JSON files are checked by
        // the simulator's StrictJSON, whose profiles give dialect defaults.
        .target(
            name: "TetherDeviceSettings",
            dependencies: [
                "TetherCommandLine", "TetherSerial", "TetherModel", "TetherPresenter", "TetherSimulator", "TetherLibC",
                "CInih",
            ]),
        // A device command's options and life: the option groups, their values, the
        // opened device, its trap, close and exit code; `send` and `receive` too.
        .target(
            name: "TetherConnection",
            dependencies: [
                "TetherCommandLine", "TetherDeviceSettings", "TetherLibC", "TetherModel", "TetherPresenter",
                "TetherSerial", "TetherSimulator", "TetherTransfer", "TetherViews", "TetherSymbols", "CAbortOrigin",
                "CSignalRecord",
            ]),
        // elfutils' libdw and libdwfl from Debian (`apt-get install libdw-dev`): a
        // firmware ELF file's symbols and DWARF lines, for `--elf` (docs/FIRMWARE.md).
        .systemLibrary(name: "CLibDW", providers: [.apt(["libdw-dev"])]),
        // Symbols: the code at a firmware's addresses, from its ELF file (libdwfl offline).
        .target(name: "TetherSymbols", dependencies: ["CLibDW", "TetherPresenter"]),
        // Views: text and JSON renderers of the presenter's view state.
        .target(name: "TetherViews", dependencies: ["TetherPresenter", "CTermInfo", "CScreenRestore", "TetherLibC"]),
        // Line editing and history from Debian (`apt-get install libedit-dev`), for connect.
        .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),
        // Console: tether's programs on a terminal — `connect`'s console (terminal, line
        // editor, view, local commands, over the Model's device) and `monitor --live`'s screen.
        .target(
            name: "TetherConsole",
            dependencies: [
                "TetherSerial", "TetherModel", "TetherPresenter", "TetherViews", "CEditLine", "TetherCommandLine",
                "CScreenRestore", "TetherTransfer", "TetherLibC",
            ]),
        // Simulator: pty device simulator, usable in-process. Its built-in profiles are
        // compiled in by the EmbedProfiles plugin (no resource bundle beside the binary).
        .target(
            name: "TetherSimulator",
            dependencies: ["TetherPoll", "TetherCommandLine", "TetherTransfer", "TetherLibC", "TetherJSON", "CPtyCompat"],
            path: "Simulator/TetherSimulator",
            exclude: ["Profiles/BuiltIn"], plugins: ["EmbedProfiles"]),
        // Profiles/BuiltIn/*.json → Swift string literals, on every build.
        .plugin(name: "EmbedProfiles", capability: .buildTool()),
        // The commit each executable was built from, for `--version`.
        .plugin(name: "StampCommit", capability: .buildTool()),
        .executableTarget(
            name: "tether-sim", dependencies: ["TetherSimulator", "TetherCommandLine", "TetherLibC"], path: "Simulator/tether-sim",
            plugins: ["StampCommit"]),
        // Composition root.
        .executableTarget(
            name: "tether",
            dependencies: [
                "TetherSerial", "TetherModel", "TetherPresenter", "TetherViews", "TetherConsole", "TetherSimulator",
                "TetherScript", "TetherCommandLine", "TetherDeviceSettings", "TetherConnection", "TetherTransfer",
                "TetherLibC",
            ],
            plugins: ["StampCommit"]
        ),
        // Benchmark: the Model through its public API, driven by scripts/bench.
        .executableTarget(name: "tether-bench", dependencies: ["TetherModel"], path: "Benchmarks/tether-bench"),
        // Tests: one target per module, plus end-to-end tests of the built executables.
        .testTarget(name: "TetherPollTests", dependencies: ["TetherPoll"]),
        .testTarget(name: "TetherSerialTests", dependencies: ["TetherSerial", "CPtyCompat", "TetherModel", "TetherLibC"]),
        // libvterm from Debian (`apt-get install libvterm-dev`), for tests only: the
        // terminal whose screen `TerminalRow`'s rendering of a line is checked against.
        .systemLibrary(name: "CLibVTerm", path: "Tests/CLibVTerm", providers: [.apt(["libvterm-dev"])]),
        .testTarget(
            name: "TetherModelTests", dependencies: ["TetherModel", "TetherSerial", "TetherTransfer", "CLibVTerm"]),
        .testTarget(name: "TetherTransferTests", dependencies: ["TetherTransfer", "TetherSimulator"]),
        .testTarget(name: "TetherCommandLineTests", dependencies: ["TetherCommandLine"]),
        .testTarget(name: "TetherJSONTests", dependencies: ["TetherJSON"]),
        .testTarget(name: "TetherLibCTests", dependencies: ["TetherLibC"]),
        // The tether executable's option declarations and parsing (`@testable import tether`).
        .testTarget(
            name: "TetherCLITests",
            dependencies: [
                "tether", "TetherCommandLine", "TetherSerial", "TetherModel", "TetherSimulator", "TetherDeviceSettings",
                "TetherConnection",
            ]),
        .testTarget(
            name: "TetherConnectionTests",
            dependencies: ["TetherConnection", "TetherCommandLine", "TetherModel", "TetherPresenter"]),
        .testTarget(
            name: "TetherDeviceSettingsTests",
            dependencies: ["TetherDeviceSettings", "TetherCommandLine", "TetherSerial", "TetherModel"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TetherSimulator"], exclude: ["Harness", "Fixtures"]),
        .testTarget(
            name: "TetherScriptTests",
            dependencies: ["TetherScript", "TetherPresenter", "TetherModel", "TetherSimulator", "TetherSerial"]),
        .testTarget(name: "TetherSymbolsTests", dependencies: ["TetherSymbols", "TetherPresenter"]),
        .testTarget(
            name: "TetherPresenterTests", dependencies: ["TetherPresenter", "TetherModel", "TetherTransfer", "TetherJSON"]),
        .testTarget(name: "TetherViewsTests", dependencies: ["TetherViews", "TetherPresenter", "TetherModel", "TetherSerial"]),
        .testTarget(
            name: "TetherConsoleTests",
            dependencies: [
                "TetherConsole", "TetherPresenter", "TetherModel", "TetherSerial", "TetherViews", "TetherCommandLine",
                "TetherTransfer",
            ]),
        // Fault tests drive the simulator through tether's Model and libserialport.
        .testTarget(
            name: "TetherSimulatorTests",
            dependencies: ["TetherSimulator", "TetherModel", "TetherSerial", "TetherCommandLine", "tether-sim"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift target, tests and executables included: a member (an extension method or
// property) is visible only where its module is imported, so the compiler holds the
// import table of docs/ARCHITECTURE.md ("Who may import whom") for members too.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
for target in package.targets where target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + releaseLinking
}

// A release build of the modules no library product holds (the executables', the
// console's, the views') makes each generic type's metadata through its accessor
// function instead of from its mangled name: the runtime then neither demangles the
// name nor looks up at run time the conformances the type's generic requirements name
// (the first lookup of each scans every conformance record in the binary;
// docs/PERFORMANCE.md, "The one-shot query since"). Not in a library product's modules:
// SwiftPM refuses a product with an unsafe flag in it as another package's dependency.
var libraryTargets = Set<String>()
var librariesToVisit = package.products.compactMap { $0 as? Product.Library }.flatMap(\.targets)
while let name = librariesToVisit.popLast() {
    guard libraryTargets.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else {
        continue
    }
    for dependency in target.dependencies {
        switch dependency {
        case .targetItem(let name, _), .byNameItem(let name, _): librariesToVisit.append(name)
        default: break
        }
    }
}
let metadataAccessors = SwiftSetting.unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
for target in package.targets where target.type == .regular || target.type == .executable {
    if !libraryTargets.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [metadataAccessors]
    }
}
