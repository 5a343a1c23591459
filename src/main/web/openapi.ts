import type { z } from 'zod'
import type { Access } from '../../shared/contract/define'
import { events, operations, type OperationName } from '../../shared/contract/operations'
import { errorPayloadSchema } from '../../shared/errors'
import { MAX_BODY } from './limits'
import { addComponent, componentRef, type JsonSchema } from './openapi-schemas'

/**
 * The HTTP API of browser mode as an OpenAPI 3.1 document, derived from the one contract: a `POST /api/<op>` path per
 * operation with its input and output schemas, the error envelope, the token rule of ./server.ts, and the events.
 * `assay serve` answers it at `GET /api/openapi.json`; `assay api openapi` writes it without a server.
 */
export interface OpenApiOptions {
  /** The port of a running server: the document then names its address and its cookie. */
  port?: number
  /** The name of the cookie the served page keeps the token in (it depends on the port). */
  cookieName?: string
}

/** The app's version, as `assay --version` prints it. */
const VERSION = '0.1.0'

/** The HTTP statuses ./server.ts answers before an operation runs, each with the envelope's code and when. */
const TRANSPORT_ERRORS: ReadonlyArray<{ status: string; name: string; code: string; description: string }> = [
  { status: '400', name: 'BadRequest', code: 'invalid_input', description: 'The path is malformed, the operation name has a malformed percent-escape, or the body is not valid JSON.' },
  { status: '401', name: 'Unauthorized', code: 'forbidden', description: 'The token is missing or wrong.' },
  { status: '403', name: 'CrossOrigin', code: 'forbidden', description: 'An `Origin` header names another site; cross-origin requests are refused (no CORS headers are sent).' },
  { status: '413', name: 'TooLarge', code: 'too_large', description: `The body is larger than ${MAX_BODY} bytes (8 MB).` },
  { status: '415', name: 'NotJson', code: 'invalid_input', description: 'The `Content-Type` is not `application/json`.' },
  { status: '421', name: 'WrongHost', code: 'forbidden', description: 'The `Host` header is not `127.0.0.1:<port>` or `localhost:<port>` (against DNS rebinding).' },
  { status: '500', name: 'Internal', code: 'internal', description: 'A defect in Assay outside an operation.' }
]

const ACCESS_TEXT: Record<Access, string> = {
  any: 'Any session may call it.',
  curator: 'Curator sessions only: an annotator session (a server started with `--annotator`, or for a packet) is answered `forbidden`, so blind annotators never see it.',
  annotator: 'Needs a session with an annotator (a server started with `--annotator` or for a packet, or after `session.setRole` to annotator); it acts on that annotator\'s own work only.'
}

const DESCRIPTION = [
  'The API of `assay serve`: the same operations the workbench calls, on 127.0.0.1 only.',
  '',
  '**Token.** Every request, this document included, carries the random token printed by `assay serve` (the `token` in its URL): as `Authorization: Bearer <token>`, as the `token` query parameter, or in the cookie `assay_token_<port>` the served page sets. Without it the answer is 401.',
  'A `Host` header other than `127.0.0.1:<port>` or `localhost:<port>` is refused with 421, an `Origin` of another site with 403, and no CORS headers are sent.',
  '',
  '**Calls.** Each operation is `POST /api/<operation>` with a JSON body (`Content-Type: application/json`; an empty body is read as `{}`); other methods are answered 405.',
  'Once a request has reached an operation the HTTP status is 200 and the body is an envelope: `{"ok": true, "value": …}` or `{"ok": false, "error": {"code", "message", "details"}}`.',
  'Error codes a script can act on: `invalid_input` (the input breaks the schema; `details` name each field), `forbidden` (the session may not call it, see `x-assay-access`), `busy` (another program holds the project\'s write lock; nothing was written, retry with backoff),',
  '`rate_limited` (too many submissions in a short time; the message says when to retry), `too_large` (an answer over the project\'s caps), `bad_data` (a stored or imported row lacks what the operation needs), `unknown_operation`, `not_found`, `conflict`, and `internal` only for defects.',
  '',
  '**Schemas.** Derived from the contract\'s zod schemas: request bodies as a client sends them (fields with defaults are optional), answers as the server sends them. Checks written as code (a base URL without credentials, say) are not expressed here; the server enforces them with `invalid_input`.',
  '',
  '**Sessions.** A server has one session. `x-assay-access` says who may call an operation (`any`, `curator`, `annotator`) and `x-assay-annotator-session` whether a server locked to one annotator answers it; curator operations are refused there by the server, not merely hidden.',
  '',
  '**Events.** `GET /api/events` streams server-sent events (progress of runs and audits, changes to the project); `x-assay-events` gives each event\'s payload schema.'
].join('\n')

export function openApiDocument(opts: OpenApiOptions = {}): JsonSchema {
  const schemas: Record<string, JsonSchema> = {}
  addComponent(schemas, 'Error', errorPayloadSchema, 'output')
  schemas.ErrorEnvelope = {
    type: 'object',
    description: 'An operation that failed; `error.code` says what a client can do about it.',
    properties: { ok: { const: false }, error: componentRef('Error') },
    required: ['ok', 'error'],
    additionalProperties: false
  }

  const paths: Record<string, unknown> = {}
  for (const name of Object.keys(operations) as OperationName[]) {
    paths[`/api/${name}`] = { post: operationObject(name, schemas) }
  }

  const eventRefs: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(events)) eventRefs[name] = addComponent(schemas, `event.${name}`, schema as z.ZodType, 'output')
  paths['/api/events'] = {
    get: {
      operationId: 'events',
      summary: 'Server-sent events: progress and changes, pushed to every client',
      tags: ['events'],
      description: 'A `text/event-stream` that stays open. Each message is `event: <name>` and `data: <JSON payload>`; comment lines (`: ping`) keep it alive every 15 s.',
      'x-assay-events': eventRefs,
      'x-assay-access': 'any',
      'x-assay-annotator-session': true,
      responses: {
        '200': { description: 'The stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...transportResponses(['401', '403', '421'])
      }
    }
  }
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document, for the running server',
      tags: ['api'],
      'x-assay-access': 'any',
      'x-assay-annotator-session': true,
      responses: {
        '200': { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } },
        ...transportResponses(['401', '403', '421'])
      }
    }
  }

  const securitySchemes: Record<string, unknown> = {
    bearerToken: { type: 'http', scheme: 'bearer', description: 'The token printed by `assay serve`, as `Authorization: Bearer <token>` (the way for scripts).' },
    queryToken: { type: 'apiKey', in: 'query', name: 'token', description: 'The token as the `token` query parameter, as in the printed URL.' }
  }
  if (opts.cookieName) {
    securitySchemes.cookieToken = { type: 'apiKey', in: 'cookie', name: opts.cookieName, description: 'The HttpOnly, SameSite=Strict cookie the served page sets after the first load with the token.' }
  }
  const responses: Record<string, unknown> = {}
  for (const e of TRANSPORT_ERRORS) {
    responses[e.name] = {
      description: `${e.description} (code \`${e.code}\`)`,
      content: { 'application/json': { schema: componentRef('ErrorEnvelope'), example: { ok: false, error: { code: e.code, message: e.description } } } }
    }
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Assay HTTP API', version: VERSION, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: opts.port
      ? [{ url: `http://127.0.0.1:${opts.port}`, description: 'This server' }]
      : [{ url: 'http://127.0.0.1:{port}', description: 'A server started by `assay serve` (it prints the port)', variables: { port: { default: '8080' } } }],
    security: Object.keys(securitySchemes).map((k) => ({ [k]: [] })),
    tags: [...new Set(Object.keys(operations).map(tagOf)), 'events', 'api'].map((name) => ({ name })),
    paths,
    components: { schemas, responses, securitySchemes }
  }
}

function tagOf(name: string): string {
  return name.split('.')[0]!
}

function operationObject(name: OperationName, schemas: Record<string, JsonSchema>): JsonSchema {
  const spec = operations[name]
  const input = addComponent(schemas, `${name}.input`, spec.input as z.ZodType, 'input')
  const output = addComponent(schemas, `${name}.output`, spec.output as z.ZodType, 'output')
  return {
    operationId: name,
    summary: spec.summary,
    description: ACCESS_TEXT[spec.access],
    tags: [tagOf(name)],
    'x-assay-access': spec.access,
    'x-assay-annotator-session': spec.access !== 'curator',
    requestBody: {
      required: !(spec.input as z.ZodType).safeParse({}).success,
      content: { 'application/json': { schema: input } }
    },
    responses: {
      '200': {
        description: 'The envelope: the value, or an error with a code',
        content: {
          'application/json': {
            schema: {
              oneOf: [
                { type: 'object', properties: { ok: { const: true }, value: output }, required: ['ok', 'value'], additionalProperties: false },
                componentRef('ErrorEnvelope')
              ]
            }
          }
        }
      },
      ...transportResponses(TRANSPORT_ERRORS.map((e) => e.status))
    }
  }
}

function transportResponses(statuses: string[]): Record<string, unknown> {
  return Object.fromEntries(
    TRANSPORT_ERRORS.filter((e) => statuses.includes(e.status)).map((e) => [e.status, { $ref: `#/components/responses/${e.name}` }])
  )
}
