/** How much a change matters to an existing client. */
export type DiffLevel = 'breaking' | 'warning' | 'info'

interface RuleSpec {
  readonly level: DiffLevel
  /** Why the change matters to a client written against the base document. */
  readonly help: string
}

const rule = (level: DiffLevel, help: string): RuleSpec => ({ level, help })

/**
 * Every rule of `diffOpenAPI()`: its level and why it matters. A request rule judges what a
 * client sends (a narrower input breaks it), a response rule what it reads (a wider output does).
 */
export const diffRules = {
  // Operations and statuses
  'operation-removed': rule(
    'breaking',
    'The operation is gone: a client calling it gets 404 or 405.',
  ),
  'deprecated-operation-removed': rule(
    'warning',
    'A deprecated operation is gone: its clients were told to move off it, but not by when.',
  ),
  'operation-removed-before-sunset': rule(
    'breaking',
    'A deprecated operation is gone before the sunset (x-sunset) it announced: its clients still have time to move.',
  ),
  'operation-removed-after-sunset': rule(
    'info',
    'A deprecated operation is gone after its sunset (x-sunset): as announced.',
  ),
  'operation-added': rule('info', 'A new operation: no existing client calls it.'),
  'response-success-status-removed': rule(
    'breaking',
    'A success status is no longer answered: a client waiting for it sees another status.',
  ),
  'response-non-success-status-removed': rule(
    'warning',
    'An error status is no longer documented: a client handling it keeps working unless the server now answers that case with another status.',
  ),
  'response-status-added': rule('info', 'A new documented status.'),
  // Parameters and bodies
  'request-parameter-added-required': rule(
    'breaking',
    'A new required parameter: requests without it are now refused.',
  ),
  'request-parameter-became-required': rule(
    'breaking',
    'An optional parameter became required: requests without it are now refused.',
  ),
  'request-parameter-added': rule('info', 'A new optional parameter.'),
  'request-parameter-removed': rule(
    'info',
    'A parameter is no longer read: clients that send it are not refused for it.',
  ),
  'request-body-added-required': rule(
    'breaking',
    'The operation now requires a request body that clients do not send.',
  ),
  'request-body-became-required': rule(
    'breaking',
    'The request body became required: requests without one are now refused.',
  ),
  'request-body-removed': rule(
    'warning',
    'The operation no longer documents a request body: what clients send may be ignored.',
  ),
  'request-media-type-removed': rule(
    'breaking',
    'A request body media type is no longer accepted: clients sending it get 415.',
  ),
  'request-media-type-added': rule('info', 'A new accepted request body media type.'),
  'response-media-type-removed': rule(
    'breaking',
    'A response media type is no longer produced: clients asking for it get 406 or another type.',
  ),
  'response-media-type-added': rule('info', 'A new response media type.'),
  // Security
  'security-added': rule('breaking', 'An operation that needed no credentials now requires them.'),
  'security-stricter': rule(
    'breaking',
    'A way of authenticating the operation was removed, or a requirement gained a scheme or a scope.',
  ),
  'security-scheme-changed': rule(
    'breaking',
    'A security scheme changed how credentials are sent (type, scheme, name or location).',
  ),
  // Request schemas: a narrower input breaks clients
  'request-property-added-required': rule(
    'breaking',
    'A new required request property: requests without it are now refused.',
  ),
  'request-property-became-required': rule(
    'breaking',
    'An optional request property became required: requests without it are now refused.',
  ),
  'request-property-added': rule('info', 'A new optional request property.'),
  'request-property-removed': rule(
    'warning',
    'A request property is no longer documented: the server may ignore or refuse it.',
  ),
  'request-property-refused': rule(
    'breaking',
    'A request property is gone and the object allows no other: requests sending it are refused.',
  ),
  'request-type-changed': rule(
    'breaking',
    'The request schema accepts fewer types: values of the old type are refused.',
  ),
  'request-nullable-removed': rule('breaking', 'The request value may no longer be null.'),
  'request-enum-value-removed': rule(
    'breaking',
    'The request enum lost members (or an enum was added): those values are refused.',
  ),
  'request-enum-value-added': rule('info', 'The request enum gained members.'),
  'request-bound-tightened': rule(
    'breaking',
    'A request bound is tighter (minLength, maxLength, minimum, maximum, exclusive bounds, minItems, maxItems, minProperties, maxProperties, multipleOf, uniqueItems): values that passed are refused.',
  ),
  'request-pattern-changed': rule(
    'breaking',
    'A request pattern was added or changed: values that matched may be refused.',
  ),
  'request-format-changed': rule(
    'breaking',
    'A request format was added or changed: values that passed may be refused.',
  ),
  'request-additional-properties-closed': rule(
    'breaking',
    'The request object no longer allows other properties: requests with them are refused.',
  ),
  'request-union-branch-removed': rule(
    'breaking',
    'A oneOf/anyOf branch of the request is gone: values of that shape are refused.',
  ),
  // Response schemas: a wider output breaks clients
  'response-required-property-removed': rule(
    'breaking',
    'A response property clients could rely on is gone.',
  ),
  'response-optional-property-removed': rule(
    'warning',
    'An optional response property is gone: clients reading it see it missing, as they could before.',
  ),
  'response-property-became-optional': rule(
    'breaking',
    'A response property that was always present may now be missing.',
  ),
  'response-property-added': rule('info', 'A new response property.'),
  'response-type-changed': rule('breaking', 'The response may hold a type clients did not expect.'),
  'response-nullable-added': rule('breaking', 'The response value may now be null.'),
  'response-enum-value-added': rule(
    'breaking',
    'The response enum gained members (or lost its enum): clients may meet values they do not know.',
  ),
  'response-bound-loosened': rule(
    'breaking',
    'A response bound is looser: clients may meet longer, shorter, larger or smaller values than before.',
  ),
  'response-pattern-changed': rule(
    'warning',
    'A response pattern was removed or changed: values may not match what clients expect.',
  ),
  'response-format-changed': rule(
    'breaking',
    'A response format was removed or changed: values may not parse as clients expect (a generated client types a date-time, a uuid or an int32 by its format).',
  ),
  'response-additional-properties-opened': rule(
    'breaking',
    'The response object may now hold properties it declared it would not.',
  ),
  'response-union-branch-added': rule(
    'breaking',
    'A new oneOf/anyOf branch of the response: clients may meet a shape they do not know.',
  ),
  // Limits
  'schema-too-deep': rule(
    'warning',
    'A schema nests more than 64 schemas deep in place (without a $ref between): it is not compared below that depth, so a change there is not reported.',
  ),
} as const satisfies Record<string, RuleSpec>

/** A rule's id. */
export type DiffRule = keyof typeof diffRules
