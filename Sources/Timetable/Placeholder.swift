// The Timetable layer; see README.
