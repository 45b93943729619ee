// swift-tools-version:6.1
// A program that uses tether as a library, as another project would (docs/LIBRARY.md):
// it starts the simulator in-process, queries it and prints readings through a view of
// its own. Another project names tether by URL instead of by path:
//     .package(url: "https://…/tether.git", from: "0.1.0")
import PackageDescription

// A path dependency's identity is its folder's name (`tether` in a plain clone, but a
// worktree or a CI checkout may call it otherwise); a URL dependency's is the URL's
// last component. The folder two levels up from this manifest:
let tether = String(#filePath.split(separator: "/").dropLast(3).last ?? "tether").lowercased()

let package = Package(
    name: "library-client",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "library-client",
            dependencies: [
                .product(name: "TetherModel", package: tether), .product(name: "TetherPresenter", package: tether),
                .product(name: "TetherSimulator", package: tether),
            ])
    ],
    swiftLanguageModes: [.v6]
)
