import GTFS

/// The database layout, generated from `GTFSSchema` so that the files, the checks and the
/// tables can never disagree.
///
/// - `gtfs.feeds`: one row per loaded feed (version, import time, counts, service period).
/// - `gtfs.<file>` (e.g. `gtfs.stop_times`): one table per GTFS file, every row keyed by
///   `feed_id`, partitioned by list on `feed_id`: each feed version is one set of plain
///   tables in schema `gtfs_part`, named `<file>_<import id>`, attached as the partitions
///   for that feed. An import fills new tables and swaps them in at the end of its
///   transaction, so readers see the old version or the new one, never a mix.
/// - Times are integer seconds since noon minus 12 h of the service date (`25:10:00` is
///   90600), dates are `date`, coordinates `double precision`; `transfers.line_number`
///   keeps the row's line in the file (the later row wins in the routing model).
public enum StoreSchema {
    /// Bumped when the layout changes; stored in `gtfs.schema_version`.
    public static let version = 1

    public static func columnDefinitions(_ spec: GTFSFileSpec) -> [String] {
        spec.columns.map { c in
            "\"\(c.name)\" \(c.kind.sqlType)" + (c.rule == .required || c.kind == .lineNumber ? " NOT NULL" : "")
        }
    }

    /// Creates the schemas, the feeds table and the partitioned parents if missing.
    public static func ensure(_ db: PGConnection) throws {
        try db.execute("BEGIN")
        do {
            // One process at a time creates the schema (two first imports may race).
            try db.execute("SELECT pg_advisory_xact_lock(7466, 1)")
            try db.execute("""
                CREATE SCHEMA IF NOT EXISTS gtfs;
                CREATE SCHEMA IF NOT EXISTS gtfs_part;
                CREATE TABLE IF NOT EXISTS gtfs.schema_version (version integer NOT NULL);
                CREATE TABLE IF NOT EXISTS gtfs.feeds (
                    feed_id text PRIMARY KEY,
                    version integer NOT NULL,
                    import_id bigint NOT NULL,
                    imported_at timestamptz NOT NULL DEFAULT now(),
                    source text NOT NULL,
                    feed_version text,
                    first_date date,
                    last_date date,
                    row_counts jsonb NOT NULL,
                    issue_counts jsonb NOT NULL,
                    import_seconds double precision
                );
                -- Added after version 1 shipped: the place a feed serves, as declared at import.
                ALTER TABLE gtfs.feeds ADD COLUMN IF NOT EXISTS place text;
                """)
            let existing = try db.scalar("SELECT max(version) FROM gtfs.schema_version")
            if let existing, Int(existing) != version {
                throw StoreError(.queryFailed, "the database holds schema version \(existing), this program needs \(version): remove the gtfs and gtfs_part schemas or use a new database")
            }
            if existing == nil { try db.execute("INSERT INTO gtfs.schema_version VALUES (\(version))") }
            for spec in GTFSSchema.files {
                let cols = (["feed_id text NOT NULL"] + columnDefinitions(spec)).joined(separator: ",\n  ")
                try db.execute("CREATE TABLE IF NOT EXISTS gtfs.\(spec.table) (\n  \(cols)\n) PARTITION BY LIST (feed_id)")
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Name of the partition of `spec` filled by import `importId`.
    public static func partition(_ spec: GTFSFileSpec, importId: Int64) -> String {
        "gtfs_part.\(spec.table)_\(importId)"
    }

    /// Keys and indexes of a partition, built after its rows are loaded (cheaper than
    /// maintaining them row by row during COPY).
    ///
    /// stop_times gets none: nothing reads it through an index (the router loads whole
    /// feeds into memory; reports scan), nothing but the importer writes it, and the
    /// importer already refuses a repeated (trip_id, stop_sequence) as a DUPLICATE_KEY row
    /// error. Its primary key was 40% of the import of bydgoszcz-2020 (0.39 of 1.04 s).
    /// Add an index here, with a benchmark, when a query needs one.
    public static func indexStatements(_ spec: GTFSFileSpec, table: String) -> [String] {
        let name = table.split(separator: ".").last!
        var out: [String] = []
        if !spec.key.isEmpty && spec.table != "stop_times" {
            let cols = spec.key.map { "\"\($0)\"" }.joined(separator: ", ")
            if spec.key.allSatisfy({ k in spec.columns.first { $0.name == k }!.rule == .required }) {
                out.append("ALTER TABLE \(table) ADD CONSTRAINT \(name)_pkey PRIMARY KEY (\(cols))")
            } else {
                // agency_id may be empty in a one-agency feed: unique, with one empty allowed.
                out.append("CREATE UNIQUE INDEX \(name)_key ON \(table) (\(cols)) NULLS NOT DISTINCT")
            }
        }
        if spec.table == "trips" { out.append("CREATE INDEX \(name)_route ON \(table) (route_id)") }
        return out
    }

    /// Foreign keys between the partitions of one import, declared `NOT VALID`: the
    /// importer has already skipped every row that breaks them (a row error each), so
    /// PostgreSQL need not re-check half a million rows with a join (0.25 s on
    /// bydgoszcz-2020); from then on it enforces them on every write. The integration
    /// tests check with anti-joins that no loaded row breaks them.
    public static func foreignKeys(importId: Int64) -> [String] {
        func p(_ t: String) -> String { "gtfs_part.\(t)_\(importId)" }
        return [
            "ALTER TABLE \(p("trips")) ADD CONSTRAINT trips_\(importId)_route_fk FOREIGN KEY (route_id) REFERENCES \(p("routes")) NOT VALID",
            "ALTER TABLE \(p("stop_times")) ADD CONSTRAINT stop_times_\(importId)_trip_fk FOREIGN KEY (trip_id) REFERENCES \(p("trips")) NOT VALID",
            "ALTER TABLE \(p("stop_times")) ADD CONSTRAINT stop_times_\(importId)_stop_fk FOREIGN KEY (stop_id) REFERENCES \(p("stops")) NOT VALID",
            "ALTER TABLE \(p("frequencies")) ADD CONSTRAINT frequencies_\(importId)_trip_fk FOREIGN KEY (trip_id) REFERENCES \(p("trips")) NOT VALID",
            "ALTER TABLE \(p("pathways")) ADD CONSTRAINT pathways_\(importId)_from_fk FOREIGN KEY (from_stop_id) REFERENCES \(p("stops")) NOT VALID",
            "ALTER TABLE \(p("pathways")) ADD CONSTRAINT pathways_\(importId)_to_fk FOREIGN KEY (to_stop_id) REFERENCES \(p("stops")) NOT VALID",
        ]
    }
}
