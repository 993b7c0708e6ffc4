import Testing
import Timetable
import TransitModel

/// The timetable's typed ids (nigiri's strong integer ids) cost nothing: each is one
/// `Int32`, so the per-stop, per-route and per-trip arrays keep their size.
@Suite struct TypedIdTests {
    @Test func everyIdIsFourBytes() {
        let sizes = [
            MemoryLayout<StopIndex>.stride, MemoryLayout<RouteIndex>.stride, MemoryLayout<TripIndex>.stride,
            MemoryLayout<RoutePosition>.stride, MemoryLayout<FeedIndex>.stride, MemoryLayout<ServiceIndex>.stride,
            MemoryLayout<ShapeIndex>.stride, MemoryLayout<SourceRouteIndex>.stride, MemoryLayout<SourceTripIndex>.stride,
        ]
        #expect(sizes == Array(repeating: 4, count: sizes.count))
        #expect(MemoryLayout<StopIndex>.alignment == 4 && MemoryLayout<StopIndex>.size == 4)
    }

    @Test func sentinelsAreFarFromMinusOneAndTheLimits() {
        for raw in [StopIndex.noStop.raw, RouteIndex.noRoute.raw, RoutePosition.noPosition.raw, ShapeIndex.noShape.raw] {
            #expect(raw != -1 && raw != .min && raw != .max && raw < -1_000_000 && raw > Int32.min / 2)
        }
    }

    @Test func idsOrderAndConvertAsTheirIndex() {
        #expect(StopIndex(3) < StopIndex(5) && StopIndex(raw: 7).index == 7)
        #expect(RoutePosition(2).advanced(by: 3) == RoutePosition(5))
        #expect("\(TripIndex(42))" == "42")
    }
}
