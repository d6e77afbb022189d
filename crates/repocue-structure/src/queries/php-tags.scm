; Definitions the shipped tags query lacks: constants, enums and their cases.

(const_element (name) @name) @definition.constant

(enum_declaration name: (name) @name) @definition.enum

(enum_case name: (name) @name) @definition.constant

; References: types in signatures and base classes.

(named_type (name) @name) @reference.type

(base_clause (name) @name) @reference.class

; Unqualified names the shipped query misses: `new Client(…)`, the class of a static call or a
; constant (`Utils::jsonDecode(…)`, `Client::class`, `Level::Debug`), a function call
; (`describe_type($x)`).

(object_creation_expression (name) @name) @reference.class

(scoped_call_expression scope: (name) @name) @reference.class

(class_constant_access_expression . (name) @name) @reference.class

(function_call_expression function: (name) @name) @reference.call

; The class a value is tested for (`$output instanceof Fancy`), as a `catch` names one.

(binary_expression operator: "instanceof" right: (name) @name) @reference.class

(binary_expression operator: "instanceof" right: (qualified_name (name) @name .)) @reference.class

; A trait a class uses (`use FormattableHandlerTrait;`): the class is built on it as on the class
; it extends.

(use_declaration (name) @name) @reference.class

(use_declaration (qualified_name (name) @name .)) @reference.class
