package slotlint

import (
	"embed"
	"strings"
)

// The page of each check, generated from package checks and the check's
// test folder by "go test ./analyzer -run TestCheckFolders -update".
//
//go:embed docs/checks/*.md
var checkPages embed.FS

// CheckPage returns the page of the check of that name, docs/checks/NAME.md,
// without the comment that says it is generated: what a finding means, bad
// code with what slotlint reports for it, the same code fixed, and how to
// turn the check off.
func CheckPage(name string) (string, bool) {
	if strings.ContainsAny(name, "/.") {
		return "", false
	}
	data, err := checkPages.ReadFile("docs/checks/" + name + ".md")
	if err != nil {
		return "", false
	}
	page := string(data)
	if strings.HasPrefix(page, "<!--") {
		if end := strings.Index(page, "-->\n"); end >= 0 {
			page = strings.TrimLeft(page[end+len("-->\n"):], "\n")
		}
	}
	return page, true
}
