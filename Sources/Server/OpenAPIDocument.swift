import Foundation

/// The API's OpenAPI 3.1 document as committed (`Sources/Server/Resources/openapi.json`,
/// made by `OpenAPIGenerator`; regenerate with
/// `swift run transit openapi > Sources/Server/Resources/openapi.json`), served at
/// /openapi.json; the tests hold the server's answers to that file.
public enum OpenAPIDocument {
    /// The committed file's text, read once from the module's resources.
    public static let served: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("Server's resource openapi.json is missing from \(Bundle.module.bundlePath)")
        }
        return text
    }()
}
