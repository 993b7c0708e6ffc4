import Testing
import TransitModel

/// How a feed's region is named for people: its agencies (or, with more than two, the
/// publisher that gathers them), then the declared place.
@Suite("Region names")
struct RegionNameTests {
    static func snapshot(agencies: [String], publisher: String?, place: String?) -> FeedSnapshot {
        var s = FeedSnapshot()
        s.feedIds = ["city"]
        s.feedInfo = [.init(publisherName: publisher, place: place)]
        s.agencies = agencies.enumerated().map { .init(feed: 0, agencyId: "\($0.offset)", name: $0.element, timezone: "UTC") }
        return s
    }

    @Test("one or two agencies: their names, not a republisher's; the place after them")
    func fewAgencies() {
        let one = Self.snapshot(agencies: ["ZDMiKP Bydgoszcz"], publisher: "Mikołaj Kuranowski", place: "Bydgoszcz")
        #expect(one.regionName(feed: 0) == "ZDMiKP Bydgoszcz, Bydgoszcz")
        let two = Self.snapshot(agencies: ["EPTC", "Trensurb"], publisher: nil, place: nil)
        #expect(two.regionName(feed: 0) == "EPTC, Trensurb")
    }

    @Test("more than two agencies: the publisher when given, else the first two and a count")
    func manyAgencies() {
        let names = ["Corredores Concesionados", "Metrobús", "Sistema de Transporte Colectivo Metro", "Tren Ligero"]
        #expect(Self.snapshot(agencies: names, publisher: "SEMOVI", place: "Mexico City").regionName(feed: 0) == "SEMOVI, Mexico City")
        #expect(Self.snapshot(agencies: names, publisher: nil, place: "Mexico City").regionName(feed: 0)
                == "Corredores Concesionados, Metrobús and 2 more, Mexico City")
    }

    @Test("a feed that names nothing is called by its id; missing feed_info entries read as empty")
    func nothingNamed() {
        var s = Self.snapshot(agencies: [""], publisher: nil, place: "")
        #expect(s.regionName(feed: 0) == "city")
        s.feedInfo = []
        #expect(s.info(feed: 0) == FeedSnapshot.FeedInfo() && s.regionName(feed: 0) == "city")
    }
}
