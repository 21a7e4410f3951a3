// A stand-in for test262's assert.js: enough of it for the runner's own tests.
function assert(mustBeTrue, message) {
  if (mustBeTrue !== true) throw new Test262Error(message || "Expected true");
}
assert.sameValue = function (actual, expected, message) {
  if (!Object.is(actual, expected)) throw new Test262Error((message || "") + " Expected SameValue(" + String(actual) + ", " + String(expected) + ")");
};
