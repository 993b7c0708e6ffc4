import TransitModel

extension FeedSnapshot {
    /// The snapshot as the reference router sees a ride filter: boarding and alighting
    /// forbidden (pickup_type and drop_off_type 1) on every stop time of a trip `trip`
    /// rejects and at every stop `stop` rejects. Indexes are unchanged, so answers compare
    /// directly with the production router's on the unrestricted timetable.
    public func restricted(trip: (Int) -> Bool, stop: (Int) -> Bool) -> FeedSnapshot {
        var out = self
        for t in 0..<trips.count {
            let allowed = trip(t)
            for st in stopTimes(ofTrip: t) where !allowed || !stop(Int(stopTimeStop[st])) {
                out.stopTimePickup[st] = 1
                out.stopTimeDropOff[st] = 1
            }
        }
        return out
    }
}
