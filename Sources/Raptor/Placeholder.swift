// The Raptor layer; see README.
