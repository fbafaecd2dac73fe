package analysis

// lightVerbs are the short forms of "dare", "fare" and "stare" (and
// English "gives") with which a question asks what does something rather
// than names what it is about: "Quale parte di PROV dà una notazione
// leggibile?", "Chi fa da aggregatore?", "Which tool gives the
// coverage?". The passage that answers says what the thing is or does
// ("PROV-N definisce una notazione"), seldom the light verb, so the
// coverage of the question's words leaves them out (FunctionWords), as
// it leaves out "è", "ha" and "va", which the stop lists already hold.
var lightVerbs = wordSet("dà fa fanno sta stanno gives")
