// A stand-in for test262's doneprintHandle.js.
function $DONE(error) {
  if (error) print("Test262:AsyncTestFailure:" + error.name + ": " + error.message);
  else print("Test262:AsyncTestComplete");
}
