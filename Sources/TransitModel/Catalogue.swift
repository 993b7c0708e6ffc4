/// The languages a rider can read the answers in.
public enum Language: String, Sendable, CaseIterable, Equatable {
    case en
    /// Simplified Chinese.
    case zhHans = "zh-Hans"

    /// Its place in `allCases` (a `Localized`'s texts, the catalogue's templates).
    var index: Int { self == .en ? 0 : 1 }

    /// The language's own name, for a switch.
    public var name: String { self == .en ? "English" : "简体中文" }

    /// A language tag as an API parameter, a `LANG` variable or a browser gives it: `en`,
    /// `en-GB`, `zh`, `zh-CN`, `zh-Hans-CN`, `zh_CN.UTF-8` (any case). Any Chinese is read as
    /// Simplified Chinese (the only Chinese here); nil for a language not offered.
    public init?(tag: String) {
        let t = tag.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
        let primary = t.split(separator: "-").first.map(String.init)?.split(separator: ".").first.map(String.init) ?? ""
        switch primary {
        case "en", "c", "posix": self = .en
        case "zh": self = .zhHans
        default: return nil
        }
    }

    /// The first offered language of an `Accept-Language` header, by its q-values (ties in
    /// the header's order); nil when it names none offered.
    public init?(acceptLanguage header: String) {
        var best: (q: Double, index: Int, language: Language)?
        for (i, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, let language = Language(tag: tag) else { continue }
            var q = 1.0
            for p in parts.dropFirst() where p.hasPrefix("q=") { q = Double(p.dropFirst(2)) ?? 0 }
            guard q > 0 else { continue }
            if best == nil || q > best!.q { best = (q, i, language) }
        }
        guard let best else { return nil }
        self = best.language
    }

    /// The language of the environment (`LC_ALL`, then `LC_MESSAGES`, then `LANG`): English
    /// unless one of them names Chinese.
    public static func environment(_ env: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = env[name], !v.isEmpty { return Language(tag: v) ?? .en }
        }
        return .en
    }
}

/// A text in every language, made once (a plan's refusal or notice carries all of them;
/// the face that shows it picks one).
public struct Localized: Sendable, Equatable {
    public let texts: [String]

    public init(_ make: (Language) -> String) { texts = Language.allCases.map(make) }

    public subscript(_ language: Language) -> String { texts[language.index] }
    public var english: String { self[.en] }
}

/// Every sentence, label and word a rider reads, in each language: the planner's
/// instructions, refusals and notices, the terminal's table, and the browser page's
/// labels (served to it as JSON from here, so the page and the server say the same
/// things). One line per message: `key = English ‖ 简体中文`.
///
/// Templates: `{name}` is a value; `{n|one|other}` picks by the number `n` (1 or not), for
/// English plurals. A key missing in a language is a test failure (`CatalogueTests`), and
/// `text` falls back to English.
public enum Catalogue {
    public static func text(_ key: String, _ language: Language, _ values: [String: String] = [:]) -> String {
        guard let entry = parsed[key] else { preconditionFailure("no message \(key) in the catalogue") }
        let text = entry[language.index].fill(values)
        // Chinese sets Latin words apart by spaces, but not from its own full-width brackets
        // and punctuation ("Yellow（开往 …） 将在" reads "Yellow（开往 …）将在").
        guard language == .zhHans, text.contains("） ") || text.contains(" （") || text.contains(" 。") else { return text }
        return text.replacingOccurrences(of: "） ", with: "）").replacingOccurrences(of: " （", with: "（").replacingOccurrences(of: " 。", with: "。")
    }

    /// `text` when the catalogue has `key`, else nil.
    public static func textIfAny(_ key: String, _ language: Language, _ values: [String: String] = [:]) -> String? {
        parsed[key] == nil ? nil : text(key, language, values)
    }

    /// The messages whose keys start with one of `prefixes`, in `language`, as templates.
    public static func messages(_ language: Language, prefixes: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for (key, entry) in table where prefixes.contains(where: { key.hasPrefix($0) }) {
            out[key] = entry[language] ?? entry[.en]
        }
        return out
    }

    /// Keys a language lacks (the test that keeps both languages whole).
    public static func missing(_ language: Language) -> [String] { table.filter { $0.value[language] == nil }.map(\.key).sorted() }

    /// A template cut once into its pieces: filling one is appending them (a followed trip's
    /// pass writes about a thousand sentences; parsing each template every time made it
    /// 14.4 ms (median) against 10.1 ms with plain interpolation, `Scripts/bench-follow.sh`).
    struct Template: Sendable {
        enum Piece: Sendable { case text(String), value(String), plural(String, one: String, other: String) }
        let pieces: [Piece]

        init(_ template: String) {
            var pieces: [Piece] = [], rest = Substring(template)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
                let parts = rest[rest.index(after: open)..<close].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                pieces.append(parts.count == 3 ? .plural(parts[0], one: parts[1], other: parts[2]) : .value(parts.joined(separator: "|")))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(.text(String(rest))) }
            self.pieces = pieces
        }

        func fill(_ values: [String: String]) -> String {
            var out = ""
            for piece in pieces {
                switch piece {
                case .text(let t): out += t
                case .value(let name): out += values[name] ?? "{\(name)}"
                case .plural(let name, let one, let other): out += Int(values[name] ?? "") == 1 ? one : other
                }
            }
            return out
        }
    }

    /// By key: the English template, then the Chinese (English where it lacks one).
    static let parsed: [String: [Template]] = table.mapValues { e in
        Language.allCases.map { Template(e[$0] ?? e[.en] ?? "") }
    }

    static let table: [String: [Language: String]] = {
        var t: [String: [Language: String]] = [:]
        for line in source.split(separator: "\n") where !line.hasPrefix("#") {
            guard let eq = line.range(of: " = ") else { continue }
            let key = String(line[..<eq.lowerBound]).trimmingCharacters(in: .whitespaces)
            let texts = line[eq.upperBound...].components(separatedBy: " ‖ ")
            var e: [Language: String] = [:]
            for (language, text) in zip(Language.allCases, texts) { e[language] = text }
            t[key] = e
        }
        return t
    }()

    // The values: names as they are; distances and durations already in the language
    // (`Words`); times as shown (`ShownTimes`). A leading or trailing space is part of a text.
    static let source = """
    # Distances and durations (Words)
    words.meters = {n} m ‖ {n} 米
    words.km = {n} km ‖ {n} 公里
    words.underMinute = under a minute ‖ 不到 1 分钟
    words.minutes = {n} min ‖ {n} 分钟
    words.hours = {h} h ‖ {h} 小时
    words.hoursMinutes = {h} h {m} min ‖ {h} 小时 {m} 分钟
    words.fewSteps = a few steps ‖ 几步
    words.and = {a} and {b} ‖ {a}和{b}
    words.or = {a} or {b} ‖ {a}或{b}
    # Modes (LegMode)
    mode.WALK = walk ‖ 步行
    mode.TRAM = tram ‖ 有轨电车
    mode.SUBWAY = metro ‖ 地铁
    mode.RAIL = train ‖ 火车
    mode.BUS = bus ‖ 公交车
    mode.FERRY = ferry ‖ 渡轮
    mode.CABLE_TRAM = cable car ‖ 缆车
    mode.GONDOLA = gondola ‖ 空中缆车
    mode.FUNICULAR = funicular ‖ 缆索铁路
    mode.TROLLEYBUS = trolleybus ‖ 无轨电车
    mode.MONORAIL = monorail ‖ 单轨列车
    mode.COACH = coach ‖ 长途客车
    mode.AIRPLANE = flight ‖ 航班
    mode.TAXI = taxi ‖ 出租车
    # Days
    day.0 = Monday ‖ 星期一
    day.1 = Tuesday ‖ 星期二
    day.2 = Wednesday ‖ 星期三
    day.3 = Thursday ‖ 星期四
    day.4 = Friday ‖ 星期五
    day.5 = Saturday ‖ 星期六
    day.6 = Sunday ‖ 星期日
    dayShort.0 = Mon ‖ 周一
    dayShort.1 = Tue ‖ 周二
    dayShort.2 = Wed ‖ 周三
    dayShort.3 = Thu ‖ 周四
    dayShort.4 = Fri ‖ 周五
    dayShort.5 = Sat ‖ 周六
    dayShort.6 = Sun ‖ 周日
    time.first = first ‖ 第一次
    time.second = second ‖ 第二次
    time.onTime = on time ‖ 准点
    time.late = +{n} min ‖ 晚 {n} 分钟
    time.early = {n} min early ‖ 早 {n} 分钟
    # A leg's instruction (LegInstruction)
    leg.walk = Walk {distance} ({duration}) to {to} ‖ 步行 {distance}（{duration}）到 {to}
    leg.walkHome = Walk {distance} ({duration}) to your destination ‖ 步行 {distance}（{duration}）到目的地
    leg.fewSteps = Go to {to}, a few steps away ‖ 前往 {to}，只有几步路
    leg.fewStepsHome = Your destination is a few steps away ‖ 目的地就在几步之外
    leg.ride = Take {mode} {route}{towards} at {departure} from {from}, {stops} {stops|stop|stops}, get off at {to} ({arrival}) ‖ {departure} 在 {from} 乘坐{mode} {route}{towards}，坐 {stops} 站，在 {to} 下车（{arrival}）
    leg.towards =  towards {headsign} ‖ （开往 {headsign}）
    leg.changeWalk = Change: walk {distance} to {to} ({duration}) ‖ 换乘：步行 {distance} 到 {to}（{duration}）
    leg.changeWalkShort = Change: walk to {to} ‖ 换乘：步行到 {to}
    leg.thenWait = , then wait {wait} ‖ ，然后等候 {wait}
    leg.changeWait = Change at {at}: wait {wait} ‖ 在 {at} 换乘：等候 {wait}
    leg.changeAt = Change at {at} ‖ 在 {at} 换乘
    leg.platform = {name}, platform {platform} ‖ {name} {platform} 号站台
    # A walk's turns along streets (WalkStep)
    step.head = Head {heading} on {way} ‖ 沿 {way} 向{heading}走
    step.headAcross = Head {heading} across {way} ‖ 向{heading}穿过 {way}
    step.start = Start on {way} ‖ 沿 {way} 出发
    step.startAcross = Start across {way} ‖ 穿过 {way} 出发
    step.continue = Continue on {way} ‖ 继续沿 {way} 走
    step.left = Turn left onto {way} ‖ 左转进入 {way}
    step.right = Turn right onto {way} ‖ 右转进入 {way}
    step.slightLeft = Turn slightly left onto {way} ‖ 稍向左转进入 {way}
    step.slightRight = Turn slightly right onto {way} ‖ 稍向右转进入 {way}
    step.sharpLeft = Turn sharp left onto {way} ‖ 向左急转进入 {way}
    step.sharpRight = Turn sharp right onto {way} ‖ 向右急转进入 {way}
    step.uTurn = Make a U-turn ‖ 掉头
    step.steps = Take the steps ‖ 走台阶
    step.cross = Cross {way} ‖ 穿过 {way}
    step.withDistance = {sentence}, {distance} ‖ {sentence}，{distance}
    way.road = the road ‖ 道路
    way.service = the service road ‖ 辅路
    way.footway = the footpath ‖ 人行道
    way.pedestrian = the pedestrian street ‖ 步行街
    way.steps = the steps ‖ 台阶
    way.crossing = the crossing ‖ 人行横道
    way.area = the square ‖ 广场
    heading.north = north ‖ 北
    heading.north-east = north-east ‖ 东北
    heading.east = east ‖ 东
    heading.south-east = south-east ‖ 东南
    heading.south = south ‖ 南
    heading.south-west = south-west ‖ 西南
    heading.west = west ‖ 西
    heading.north-west = north-west ‖ 西北
    # What sets an option apart (the API's labels)
    label.walk-only = on foot ‖ 步行
    label.earliest-arrival = arrives first ‖ 最早到达
    label.latest-departure = leaves last ‖ 最晚出发
    label.fastest = fastest ‖ 最快
    label.fewest-changes = fewest changes ‖ 换乘最少
    label.least-walking = least walking ‖ 步行最少
    label.earliest-departure = leaves first ‖ 最早出发
    label.later-departure = later ‖ 较晚
    label.earlier-arrival = earlier ‖ 较早
    label.recommended = recommended ‖ 推荐
    label.alternative = alternative ‖ 备选
    label.leaves-later = leaves {duration} later ‖ 晚 {duration}出发
    label.leaves-earlier = leaves {duration} earlier ‖ 早 {duration}出发
    label.more-changes = {n} more {n|change|changes} ‖ 多换乘 {n} 次
    label.more-waiting = {duration} more walking and waiting ‖ 多步行和等候 {duration}
    label.longer-ride = {duration} longer aboard ‖ 多乘车 {duration}
    # Ends of a trip
    end.origin = origin ‖ 起点
    end.destination = destination ‖ 终点
    # Refusals (PlanError) and notices (PlanNotice)
    reason.samePlace = The origin and the destination are the same place: there is nowhere to go. ‖ 起点和终点是同一个地方：无需出行。
    reason.noFeed = The {end} is outside the area this service covers: no feed is loaded. ‖ {end}不在本服务覆盖的区域内：没有加载任何数据。
    reason.outsideOnDay = The {end} is outside the area served on that day: no stop near it has service then; the nearest area with service is {region}. ‖ {end}不在当天有服务的区域内：附近的车站当时都没有服务；最近的有服务区域是 {region}。
    reason.outsideNearestStop = The {end} is outside the area this service covers: the nearest stop, {stop}, is {stopDistance} away (beeline){walkable}The nearest region is {region}, {distance} away. ‖ {end}不在本服务覆盖的区域内：最近的车站 {stop} 直线距离 {stopDistance}{walkable}最近的区域是 {region}，距离 {distance}。
    reason.walkable = ; with no street map, it is the nearest place known to be walkable.  ‖ ；没有街道地图，这是已知能步行到达的最近地点。
    reason.walkableFar = .  ‖ 。
    reason.outsideRegion = The {end} is outside the area this service covers: the nearest region is {region}, {distance} away. ‖ {end}不在本服务覆盖的区域内：最近的区域是 {region}，距离 {distance}。
    reason.noStopNearby = There is no {kind} within {max} m walk of the {end}: {how}. ‖ {end}步行 {max} 米内没有{kind}：{how}。
    reason.kindStop = stop ‖ 车站
    reason.kindAccessible = wheelchair-accessible stop ‖ 无障碍车站
    reason.nearestOnFoot = the nearest {kind} is {meters} m away on foot ‖ 最近的{kind}步行 {meters} 米
    reason.noneKnown = no {kind} is known near it ‖ 附近没有已知的{kind}
    reason.noService = There is no service on {date}: the {timetables} {periods}. ‖ {date} 没有服务：{periods}。
    reason.timetable = timetable ‖ 时刻表
    reason.timetables = timetables of ‖ 时刻表
    reason.runs = {feed} runs from {start} to {end} ‖ {feed} 的运营日期为 {start} 至 {end}
    reason.noServiceAtAll = {feed} has no service at all ‖ {feed} 没有任何服务
    reason.noConnection = No connection: nothing that {when} on {date} reaches the destination {limits}. ‖ 没有可用的连接：{date} {when}的车次都到不了终点（{limits}）。
    reason.leavesAfter = leaves after {time} ‖ {time} 以后出发
    reason.arrivesBy = arrives by {time} ‖ {time} 以前到达
    reason.maxChanges = with at most {n} {n|change|changes} ‖ 最多换乘 {n} 次
    reason.wheelchairOnly = on wheelchair-accessible stops and trips ‖ 只用无障碍车站和车次
    reason.onlyModes = using only {modes} ‖ 只乘坐{modes}
    reason.withoutModes = without {modes} ‖ 不乘坐{modes}
    reason.noTransit = without any transit ‖ 不乘坐任何公共交通
    reason.modeNotInRegion = {what} in this region (it has: {has}). ‖ 本区域{what}（这里有：{has}）。
    reason.noneOfModes = None of the modes asked for runs ‖ 所选的交通方式都没有运行
    reason.noMode = No {modes} ‖ 没有{modes}
    reason.noAccessibilityData = {what}, so no step-free trip can be planned here: plan without wheelchair and check with the operator. ‖ {what}，因此这里无法规划无障碍行程：请不选轮椅规划，并向运营方确认。
    reason.marksNothing = {names} {count|marks|mark} no stop and no trip as wheelchair accessible or not ‖ {names} 没有标明任何车站或车次是否无障碍
    reason.marksStopsOnly = {names} {count|marks|mark} which stops are wheelchair accessible but no trip ‖ {names} 只标明了车站是否无障碍，没有标明车次
    reason.marksTripsOnly = {names} {count|marks|mark} which trips are wheelchair accessible but no stop ‖ {names} 只标明了车次是否无障碍，没有标明车站
    reason.unknownStop = no stop with id "{id}" ‖ 没有 id 为“{id}”的车站
    reason.inFeed =  in feed "{feed}" ‖ （数据源“{feed}”）
    reason.ambiguousStop = stop id "{id}" is in several feeds ({feeds}): write stop:FEED:{id} ‖ 车站 id“{id}”出现在多个数据源中（{feeds}）：请写成 stop:数据源:{id}
    notice.cutShort = Not every alternative in the window was looked for: the request ran out of time. ‖ 时间窗口内的备选方案没有全部找完：请求超时了。
    notice.wheelchair = Wheelchair: only stops and trips marked accessible are used. ‖ 轮椅：只使用标为无障碍的车站和车次。
    notice.wheelchairUnknown =  {stops} of {boardable} stops and {trips} of {allTrips} trips have no accessibility information and count as not accessible. ‖ {boardable} 个车站中有 {stops} 个、{allTrips} 个车次中有 {trips} 个没有无障碍信息，按不无障碍处理。
    notice.outlying = Local transit at {place} is not covered: {region} only reaches it, with {n} {n|trip|trips} a day, {distance} from the network it runs. ‖ 不包括 {place} 的本地公交：只有 {region} 到达这里，每天 {n} 班，距其线网 {distance}。
    # The terminal's plan (PlanAnswerText)
    text.header = {from} → {to}, {how} {time} on {day} ({zone}) ‖ {from} → {to}，{day} {time} {how}（{zone}）
    text.leaveAt = leave at ‖ 出发
    text.arriveBy = arrive by ‖ 前到达
    text.columns = #|Leave|Arrive|Time|Changes|Walk|Modes ‖ #|出发|到达|用时|换乘|步行|方式
    text.walk = walk ‖ 步行
    text.steps = Steps of option {n}{why}: ‖ 方案 {n} 的步骤{why}：
    text.why = ({what}) ‖ （{what}）
    text.earliestArrival = earliest arrival ‖ 最早到达
    text.latestDeparture = latest departure ‖ 最晚出发
    text.recommended = recommended ‖ 推荐
    text.arrive = Arrive ‖ 到达
    text.doesNotStop = Does not stop at {stops} ‖ 不停靠：{stops}
    text.alert = Alert: {text} ‖ 提醒：{text}
    text.alertWithoutText = an alert without text ({id}) ‖ 一条没有文字的提醒（{id}）
    text.note = Note: {text} ‖ 注意：{text}
    text.rides = {n} {n|ride|rides} ‖ 乘车 {n} 次
    text.noChange = no change ‖ 无需换乘
    text.changes = {n} {n|change|changes} ‖ 换乘 {n} 次
    text.ridesChanges = {rides}, {changes} ‖ {rides}，{changes}
    text.walkFor = walk {distance} ({duration}) ‖ 步行 {distance}（{duration}）
    text.noWalking = no walking ‖ 无需步行
    text.waiting = waiting {duration} ‖ 等候 {duration}
    text.onFoot = on foot ‖ 步行
    text.noServiceAfter = No service after {time}: the last arrival is {duration} before the time asked. ‖ {time} 以后没有服务：最后一班在所问时间之前 {duration} 到达。
    text.noServiceUntil = No service until {time}: the first departure is {duration} after the time asked. ‖ {time} 以前没有服务：第一班在所问时间之后 {duration} 出发。
    text.realtime = Realtime: {feed}'s message{of}, {applied} of {updates} trip {updates|update|updates} applied. ‖ 实时：{feed} 的消息{of}，{updates} 条车次更新中已应用 {applied} 条。
    text.realtimeOf =  of {time}{age} ‖ （{time}{age}）
    text.realtimeAge =  ({age} old) ‖ ，{age}前
    text.realtimeFresh =  (under a minute old) ‖ ，不到 1 分钟前
    text.clocksBack = On {day} {date} the clocks go back {duration}: a time marked (first) is before they do, (second) after. ‖ {date} {day}时钟回拨 {duration}：标有（第一次）的时间在回拨之前，标有（第二次）的在回拨之后。
    text.movedToFirstWeekday = {day} is outside the timetable's dates ({first} to {last}): planning for {weekday} {target}, the first {weekday} in them. ‖ {day} 不在时刻表的日期内（{first} 至 {last}）：按 {target} {weekday}规划，即其中第一个{weekday}。
    text.movedToLastWeekday = {day} is outside the timetable's dates ({first} to {last}): planning for {weekday} {target}, the last {weekday} in them. ‖ {day} 不在时刻表的日期内（{first} 至 {last}）：按 {target} {weekday}规划，即其中最后一个{weekday}。
    text.movedToFirstDay = {day} is outside the timetable's dates ({first} to {last}): planning for {weekday} {target}, the first day in them. ‖ {day} 不在时刻表的日期内（{first} 至 {last}）：按 {target} {weekday}规划，即其中第一天。
    text.movedToLastDay = {day} is outside the timetable's dates ({first} to {last}): planning for {weekday} {target}, the last day in them. ‖ {day} 不在时刻表的日期内（{first} 至 {last}）：按 {target} {weekday}规划，即其中最后一天。
    # A followed trip's events (Follow)
    follow.line = {line} towards {headsign} ‖ {line}（开往 {headsign}）
    follow.onTime = on time ‖ 准点
    follow.late = {n} min late ‖ 晚点 {n} 分钟
    follow.early = {n} min early ‖ 提前 {n} 分钟
    follow.delay = {Line} now {parts}. ‖ {Line} 现在{parts}。
    follow.and =  and  ‖ ，
    follow.delayLeaves = leaves {stop} at {time} ({lateness}, was {was}) ‖ {time} 从 {stop} 出发（{lateness}，原为 {was}）
    follow.delayReaches = reaches {stop} at {time} ({lateness}, was {was}) ‖ {time} 到达 {stop}（{lateness}，原为 {was}）
    follow.cancelled = {Line} from {stop} at {time} is cancelled. ‖ {time} 从 {stop} 出发的 {Line} 已取消。
    follow.skippedBoard = {Line} no longer stops at {stop}, where you board. ‖ {Line} 不再停靠你上车的 {stop}。
    follow.skippedAlight = {Line} no longer stops at {stop}, where you get off. ‖ {Line} 不再停靠你下车的 {stop}。
    follow.missed = {Line} now reaches {stop} at {time}: the change to {next} at {nextTime} no longer works. ‖ {Line} 现在 {time} 到达 {stop}：赶不上 {nextTime} 的 {next} 了。
    follow.leaves = {Line} leaves {stop} in {n} min ({time}). ‖ {Line} 将在 {n} 分钟后（{time}）从 {stop} 出发。
    follow.getOff = Get off {line} at {stop} in {n} min ({time}). ‖ {n} 分钟后（{time}）在 {stop} 下车（{line}）。
    follow.arrived = You have arrived ({time}). ‖ 你已到达（{time}）。
    follow.alert = Alert for {line}: {text} ‖ {line} 的提醒：{text}
    follow.noWay =  There is no way to continue: {why} ‖ 无法继续行程：{why}
    follow.onlyWalk =  There is no ride to continue with: {why} ‖ 没有可以继续乘坐的车次：{why}
    follow.onlyWalkWhy = only walking is left: {meters} m to {stop}. ‖ 只剩步行：到 {stop} {meters} 米。
    follow.newPlan =  New plan: {line} from {stop} at {time}, arriving at {end} at {endTime}{changes} ‖ 新的方案：{time} 从 {stop} 乘坐 {line}，{endTime} 到达 {end}{changes}
    follow.newPlanEnd = . ‖ 。
    follow.newPlanChanges =  ({n} {n|change|changes}). ‖ （换乘 {n} 次）。
    follow.following = Following your trip: {parts}. ‖ 正在跟踪你的行程：{parts}。
    follow.then = , then  ‖ ，然后
    follow.ride = {line} from {stop} at {time} to {end} ({endTime}) ‖ {time} 从 {stop} 乘坐 {line} 到 {end}（{endTime}）
    # The browser page
    page.title = Trip planner ‖ 出行规划
    page.from = From ‖ 出发地
    page.to = To ‖ 目的地
    page.fromPlaceholder = Stop name, or click the map ‖ 车站名称，或点击地图
    page.toPlaceholder = Stop name, or click the map ‖ 车站名称，或点击地图
    page.swap = Swap from and to ‖ 交换出发地和目的地
    page.leaveAt = Leave at ‖ 出发时间
    page.arriveBy = Arrive by ‖ 到达时间
    page.when = When ‖ 时间
    page.date = Date ‖ 日期
    page.time = Time ‖ 时刻
    page.modes = Modes ‖ 交通方式
    page.allModes = All modes ‖ 所有方式
    page.wheelchair = Wheelchair accessible only ‖ 仅无障碍
    page.plan = Plan trip ‖ 规划行程
    page.planning = Planning… ‖ 正在规划……
    page.language = Language ‖ 语言
    page.alternatives = Alternatives ‖ 备选方案
    page.option = Option {n} ‖ 方案 {n}
    page.steps = Steps ‖ 步骤
    page.map = Map of the trip ‖ 行程地图
    page.leave = Leave ‖ 出发
    page.arrive = Arrive ‖ 到达
    page.duration = Time ‖ 用时
    page.changes = Changes ‖ 换乘
    page.walking = Walk ‖ 步行
    page.modesColumn = Modes ‖ 方式
    page.why = Why ‖ 特点
    page.start = Start ‖ 起点
    page.destination = Destination ‖ 终点
    page.board = Board ‖ 上车
    page.alight = Get off ‖ 下车
    page.change = Change ‖ 换乘
    page.vehicle = Vehicle now ‖ 车辆位置
    page.arrived = Arrive ‖ 到达
    page.late = {n} min late ‖ 晚点 {n} 分钟
    page.early = {n} min early ‖ 提前 {n} 分钟
    page.cancelled = Cancelled ‖ 已取消
    page.alert = Alert: {text} ‖ 提醒：{text}
    page.pickPlace = Choose a place from the list, or click the map. ‖ 请从列表中选择地点，或点击地图。
    page.noMatch = No stop matches “{text}”. ‖ 没有与“{text}”匹配的车站。
    page.point = Point {lat}, {lon} ‖ 地点 {lat}, {lon}
    page.setFrom = Set as start ‖ 设为起点
    page.setTo = Set as destination ‖ 设为终点
    page.coverage = Served area: {name} ‖ 服务区域：{name}
    page.serverError = The server could not answer: {text} ‖ 服务器无法回答：{text}
    page.offline = The server cannot be reached. Check the connection and try again. ‖ 无法连接服务器。请检查网络后重试。
    page.follow = Follow this trip ‖ 跟踪此行程
    page.following = Following this trip: changes will show here. ‖ 正在跟踪此行程：变化会显示在这里。
    page.realtime = Realtime times ‖ 实时时间
    page.results = {n} {n|alternative|alternatives} found ‖ 找到 {n} 个方案
    page.stepOf = Step {n} of {count} ‖ 第 {n} 步，共 {count} 步
    page.skipToSteps = Skip to the steps ‖ 跳到步骤
    page.network = Network ‖ 线网
    """
}
