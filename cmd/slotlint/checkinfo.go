package main

import (
	"fmt"
	"io"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/checks"
)

// checkInfo prints what -list-checks and -explain ask for and returns the
// exit code: 0, or 2 for a name that is not a check.
func checkInfo(cl *cmdline, stdout, stderr io.Writer) int {
	if cl.set["list-checks"] && cl.boolValue("list-checks", false) {
		fmt.Fprint(stdout, checks.Listing())
	}
	if !cl.set["explain"] {
		return 0
	}
	name := cl.values["explain"]
	if _, ok := checks.Lookup(name); !ok {
		fmt.Fprintf(stderr, "slotlint: -explain: %v\n", checks.UnknownError(name))
		return 2
	}
	page, ok := slotlint.CheckPage(name)
	if !ok {
		fmt.Fprintf(stderr, "slotlint: -explain: check %s has no page in this build; see %s\n", name, checkURL(name))
		return 2
	}
	fmt.Fprint(stdout, page)
	return 0
}

// checkURL is the address of a check's page.
func checkURL(name string) string {
	c, _ := checks.Lookup(name)
	return c.URL()
}
