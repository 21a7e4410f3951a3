// a fixture: not a test at all, and not counted
