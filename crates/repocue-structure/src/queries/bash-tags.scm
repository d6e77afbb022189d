; The grammar ships no tags query; this is the whole of it.

(function_definition name: (word) @name) @definition.function

(command name: (command_name (word) @name)) @reference.call
