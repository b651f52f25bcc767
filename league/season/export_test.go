package season

// PauseAt makes Add call do at step (one of Steps), for the tests that
// kill an add there.
func PauseAt(step string, do func()) {
	pause = func(at string) {
		if at == step {
			do()
		}
	}
}

// Steps are the steps of Add that PauseAt can stop at, in order.
func Steps() []string { return []string{"locked", "read", "temp-written", "written"} }
