/// The cases of issue 19 ("First choices a person would make"), found on the shared feeds
/// by seeded random queries (the same kind RiderFilterRandomTests makes).
enum RiderFilterCases {
    static let trips: [RiderFilterGoldenTests.Trip] = [
        .init(file: "sacramento-sacrt-2024.zip", from: "stop:3079", to: "stop:453", at: "2024-06-18T22:40:00",
              why: "An overnight wait of more than six hours at a change, when a direct ride leaves in the morning: "
                  + "the direct ride is recommended; the night one, the model's first, is kept and says what it costs; "
                  + "neither is \"fastest\" (the short ride leaves hours after the first)."),
        .init(file: "bydgoszcz-2020.zip", from: "stop:1057", to: "stop:8055", at: "2020-06-02T10:05:00",
              why: "A bus and a tram to gain 4 minutes over a direct bus leaving the same minute: the direct bus is recommended."),
        .init(file: "bydgoszcz-2020.zip", from: "stop:8055", to: "stop:10087", at: "2020-06-02T07:30:00", arriveBy: true,
              why: "Arrive by 07:30: the 03:30 night bus that saves one change is not shown; "
                  + "earlier departures say how much earlier they leave."),
        .init(file: "bydgoszcz-2020.zip", from: "stop:9031", to: "stop:7059", at: "2020-06-02T07:30:00", arriveBy: true,
              why: "Arrive by 07:30: a night bus at 03:55 with no change is within the limit, so it is kept; "
                  + "its label says why and at what price (\"fewest changes, leaves 2 h 50 min earlier\")."),
        .init(file: "bydgoszcz-2020.zip", from: "stop:9012", to: "stop:8028", at: "2020-06-02T20:47:00",
              why: "An option leaving the same minute as the one before it is not \"later\"."),
        .init(file: "bart-2018.zip", from: "stop:DELN", to: "stop:19TH", at: "2018-06-05T20:55:00",
              why: "A change to arrive 2 minutes earlier than the direct train of the same minute: the direct train "
                  + "is recommended; the next trains of the window are still shown."),
        .init(file: "caltrain.zip", from: "stop:San Bruno Caltrain", to: "stop:San Carlos Caltrain", at: "2009-03-03T11:03:00",
              why: "The train 24 minutes later is 2 minutes shorter: the first train is still recommended "
                  + "(waiting to leave counts half)."),
    ]
}
