import CProj

/// An error reported by PROJ (or by this module's argument checks before calling PROJ).
public struct GeoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PROJ error number (one of the `PROJ_ERR_*` constants from `proj.h`, e.g.
    /// `1027` = `PROJ_ERR_INVALID_OP_ILLEGAL_ARG_VALUE`), or `0` if PROJ reported
    /// failure without setting an error number.
    public var code: Int32
    /// What this module was doing when the failure happened, e.g.
    /// `"proj_create failed for +proj=pipeline ..."`.
    public var message: String
    /// PROJ's own text for ``code`` (from `proj_context_errno_string`), e.g.
    /// `"Invalid value for an argument"`. Empty if unavailable.
    public var projMessage: String

    /// Creates an error from its parts; see the properties for their meaning.
    public init(code: Int32, message: String, projMessage: String) {
        self.code = code
        self.message = message
        self.projMessage = projMessage
    }

    /// `"<message>: <projMessage> (PROJ error <code>)"`.
    public var description: String {
        "\(message): \(projMessage.isEmpty ? "unknown error" : projMessage) (PROJ error \(code))"
    }

    /// Builds an error from the current error state of `context` (may be nil).
    static func fromContext(_ context: OpaquePointer?, _ message: String) -> GeoError {
        let code = proj_context_errno(context)
        let text = proj_context_errno_string(context, code).map { String(cString: $0) } ?? ""
        return GeoError(code: code, message: message, projMessage: text)
    }
}
