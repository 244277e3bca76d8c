// Package confine starts the processes Wisp runs on the agent's behalf (its shell
// commands and the MCP stdio servers) inside a Landlock domain of the Linux kernel,
// so that what a hostile model makes them do cannot reach Wisp's own controls: they
// can neither read nor write the folders and files of the Policy (Wisp's state folder
// and config file) nor connect to, or bind, its TCP ports. Wisp itself stays
// unrestricted. Levels and their reasons: Confiner.Status; the threat notes:
// docs/confinement.md.
//
// # Only the children
//
// Landlock and no_new_privs are credentials of a thread, and a thread's children
// inherit them. Go's os/exec forks from the OS thread of the goroutine that calls
// Cmd.Start. So a spawner goroutine locks itself to its OS thread for good
// (runtime.LockOSThread, never undone), sets no_new_privs and enforces the rulesets
// there only (landlock_restrict_self without the TSYNC flag), and then runs the
// Start of every confined process; the processes it forks start inside the domain.
// go-landlock's Restrict (and the psx / AllThreadsSyscall calls behind it) is not
// used: it restricts every thread of the process, Wisp's included.
//
// This holds because of three properties of the Go runtime (checked in Go 1.26's
// runtime/proc.go):
//
//   - A locked thread runs its own goroutine and nothing else: when that goroutine
//     blocks, schedule() parks the thread (stoplockedm) and hands its P to another
//     thread, so no other goroutine of Wisp ever runs with the restriction.
//   - A locked thread never clones a new thread itself: newm sees lockedExt != 0
//     and hands the new M to the template thread, which LockOSThread starts
//     (startTemplateThread) before it marks the thread locked, so from a thread
//     still unrestricted. Threads the runtime makes later therefore never inherit
//     the domain.
//   - A goroutine that exits while locked takes its thread with it: gdestroy
//     returns to mstart, which exits the thread (mexit). A spawner that is
//     replaced or closed simply returns. The main thread is the exception (mexit
//     parks it for good, and /proc/<pid>/ names it), so a spawner that finds
//     itself there hands over to another goroutine before it restricts anything.
//
// A spawner lives as long as a process it started may still be waited for (a
// release function says when): a child's "parent" in the kernel's sense is the
// thread that forked it, and Pdeathsig (which the MCP servers use) fires when that
// thread exits, not when Wisp does.
//
// # What is denied
//
// Landlock only allows. "Everything but D" is built by walking up from every denied
// path D: each folder above it (an ancestor) gets only the right to list it, and each
// of its other entries gets every right (folders) or every file right (other files),
// so that a right granted on an ancestor can never reach into D. Creating, removing
// or renaming entries directly in an ancestor is thereby refused as well (such a
// right would reach D's place too); every subfolder beside the way to D is untouched.
// Entries that are symbolic links get no rule (Landlock checks the path a link leads
// to), nor do entries that are D itself under another name (a hard link or a bind
// mount, by device and inode), nor the temporary files Wisp writes beside a denied
// file before renaming them over it (internal/atomicfile). Denied paths are resolved
// first, since Landlock sees the resolved hierarchy.
//
// A new entry in an ancestor (a folder made in the home folder) is not covered by the
// rules built before it existed: every Start compares the ancestors' modification
// times with the ones the rules were built from, and builds the filesystem rules
// again (and moves to a new thread) when one changed. A folder changed less than a
// second before it was listed is listed again once that second has passed: a change
// within the same tick of the clock keeps the modification time.
//
// Network rules (Landlock ABI 4, Linux 6.7) also only allow: every TCP port but the
// denied ones is allowed, 65,536 rules built once per set of ports in a ruleset of
// its own, off the hot path. A thread takes both rulesets as two layers.
//
// It imports nothing of Wisp but internal/.
package confine
