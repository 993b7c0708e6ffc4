// The Planner layer; see README.
