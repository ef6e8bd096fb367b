# Answers given as text that would run code if anyone eval'd it.
RUN = "__import__('os').system('touch @@MARKER@@ /tmp/pwned')"


def scaled_scores():
    return (RUN, "exec(\"open('@@MARKER@@', 'w').write('pwned')\")")


def attention_weights():
    return ("().__class__.__bases__[0].__subclasses__()", "__builtins__['eval']('1')")


def attention_output():
    return ("(lambda: __import__('subprocess').call(['touch', '@@MARKER@@']))()",
            "Symbol('x').__class__.__init__.__globals__")
