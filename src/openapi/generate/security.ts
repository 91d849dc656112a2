import type { Discovery } from '../../runtime/pipeline/discover-routes.js'
import { optionError } from '../../shared/error-codes.js'
import { checkSecurity, resolveSchemes } from '../../shared/resolve-schemes.js'
import type { SecurityRequirement, SecurityScheme } from '../../shared/security-scheme.js'
import type { OpenAPIConfig, WarningSink } from './types.js'

/** The schemes a document describes, by name, and the requirement of a route without its own. */
export interface DocumentSecurity {
  readonly schemes: Readonly<Record<string, SecurityScheme>>
  readonly defaultSecurity: SecurityRequirement
}

const where = 'generateOpenAPI()'

/** Throws the misuse error of the removed `security` option: schemes are declared once, in auth. */
export function refuseSecurityOption(config: object): void {
  if (Object.hasOwn(config, 'security'))
    throw optionError(
      'SG_ERR_MISPLACED_OPTION',
      `shapeguard: ${where}: security is not an option: security schemes are declared once, with their verifiers, in shapeguard({ auth }); generateOpenAPI() takes { app } (whose shapeguard() gives them) or { auth, defaultSecurity }`,
    )
}

const sameText = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The schemes and default requirement the document describes: `auth` and `defaultSecurity` as
 * given, else as the app's shapeguard() declares them (the first one mounted); a document that
 * says otherwise than the app is warned about. `defaultSecurity` names declared schemes only.
 */
export function securityOf(
  config: OpenAPIConfig,
  discovery: Discovery | undefined,
  warn: WarningSink,
): DocumentSecurity {
  const app = discovery?.answers[0]
  let schemes: Readonly<Record<string, SecurityScheme>> = app?.securitySchemes ?? {}
  if (config.auth !== undefined) {
    const resolved = resolveSchemes(config.auth, `${where}: auth`)
    schemes = Object.fromEntries([...resolved].map(([name, s]) => [name, s.document]))
    if (app !== undefined && !sameText(schemes, app.securitySchemes))
      warn(
        `shapeguard: generateOpenAPI app: its shapeguard() declares other auth schemes than the document describes, as auth says`,
      )
  }
  let defaultSecurity = app?.defaultSecurity ?? []
  if (config.defaultSecurity !== undefined) {
    defaultSecurity = config.defaultSecurity
    if (app !== undefined && !sameText(defaultSecurity, app.defaultSecurity ?? []))
      warn(
        `shapeguard: generateOpenAPI app: its shapeguard() has another defaultSecurity than the document describes, as defaultSecurity says`,
      )
  }
  checkSecurity(defaultSecurity, `${where}: defaultSecurity`, new Set(Object.keys(schemes)))
  return { schemes, defaultSecurity }
}
