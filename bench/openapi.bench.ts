import * as v from 'valibot'
import * as y from 'yup'
import * as z from 'zod'
import { valibotAdapter } from '../src/adapters/valibot/index.js'
import { yupAdapter } from '../src/adapters/yup/index.js'
import { generateOpenAPI, type OpenAPIRoute } from '../src/openapi/index.js'
import { compare, printComparison, writeResults } from './lib.js'

// Question: does generating the OpenAPI document of a 100-route API take under 50 ms, and how does
// it compare with zod's own z.toJSONSchema writing the same schemas (no document around them)?

const Address = z.object({ street: z.string(), zip: z.string().regex(/^\d{5}$/), city: z.string() })
const userOf = (i: number) =>
  z.object({
    id: z.uuid(),
    name: z.string().min(1).max(100),
    email: z.email(),
    role: z.enum(['admin', 'member']).default('member'),
    address: Address.nullable(),
    tags: z.array(z.string()).max(10),
    [`field${i}`]: z.number().int().optional(),
  })

// 100 routes: 70 written in zod, 15 in valibot, 15 in yup; a body, params, a query and a response.
const routes: Record<string, OpenAPIRoute> = {}
const zodSchemas: z.ZodType[] = []
for (let i = 0; i < 100; i++) {
  const params = z.object({ id: z.uuid() })
  const query = z.object({
    page: z.coerce.number().int().min(1).default(1),
    q: z.string().optional(),
  })
  if (i < 70) {
    const user = userOf(i)
    zodSchemas.push(user, params, query)
    routes[`${i % 2 === 0 ? 'POST' : 'PUT'} /r${i}/:id`] = {
      summary: `Route ${i}`,
      params,
      query,
      body: user,
      response: user,
    }
  } else if (i < 85) {
    const body = valibotAdapter(
      v.object({
        name: v.pipe(v.string(), v.minLength(1)),
        count: v.pipe(v.number(), v.integer()),
        note: v.nullable(v.string()),
      }),
    )
    routes[`POST /v${i}`] = { summary: `Route ${i}`, body, response: body }
  } else {
    const body = yupAdapter(
      y.object({ name: y.string().required(), count: y.number().integer().required() }),
    )
    routes[`POST /y${i}`] = { summary: `Route ${i}`, body, response: body }
  }
}

const generate = () =>
  generateOpenAPI({ title: 'Bench', version: '1.0.0', routes, onWarning: () => {} })
const zodOnly = () => {
  for (const s of zodSchemas) z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })
}

const started = performance.now()
generate()
const firstMs = performance.now() - started

const result = await compare(
  'OpenAPI document for 100 routes vs z.toJSONSchema of the zod routes’ schemas',
  'z.toJSONSchema (210 schemas, no document)',
  {
    'z.toJSONSchema (210 schemas, no document)': zodOnly,
    'generateOpenAPI (100 routes)': generate,
  },
  { time: 1000 },
)
printComparison(result)
const documentMs = Number((result.cases[1]!.meanNs / 1e6).toFixed(2))
process.stdout.write(
  `\ndocument: ${documentMs} ms per document (first: ${firstMs.toFixed(1)} ms)\n`,
)
writeResults(`openapi-node${process.versions.node.split('.')[0]}`, {
  question: 'generateOpenAPI for 100 routes (target < 50 ms) vs z.toJSONSchema of the same schemas',
  documentMs,
  firstDocumentMs: Number(firstMs.toFixed(1)),
  targetMs: 50,
  result,
})
