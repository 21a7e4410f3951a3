// A stand-in for test262's sta.js.
function Test262Error(message) {
  if (!(this instanceof Test262Error)) return new Test262Error(message);
  this.message = message || "";
}
function $DONOTEVALUATE() { throw "Test262: This statement should not be evaluated."; }
