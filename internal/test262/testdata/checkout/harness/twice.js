// An include: a helper a test names in its frontmatter.
function twice(x) { return 2 * x; }
