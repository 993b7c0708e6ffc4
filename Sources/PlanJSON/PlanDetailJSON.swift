import Planner

extension PlanDetail {
    /// As a JSON-ready value.
    public var json: Any {
        switch self {
        case .text(let t): return t
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? Int(n) as Any : n as Any
        case .flag(let b): return b
        case .list(let l): return l.map(\.json)
        case .object(let o): return o.mapValues(\.json)
        }
    }
}
