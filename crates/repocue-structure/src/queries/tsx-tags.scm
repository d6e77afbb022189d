; TSX-only additions (JSX nodes the plain TypeScript grammar lacks).

; References: JSX components (capitalised; lower-case tags are HTML).

(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
