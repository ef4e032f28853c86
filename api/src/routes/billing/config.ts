import { ConfigError } from '../../config.js'

export interface BillingConfig {
  secretKey: string
  /** Where the Stripe SDK sends its requests; unset means Stripe itself. Tests point it at a local stand-in. */
  apiBase: { protocol: 'http' | 'https', host: string, port: number } | undefined
}

type Env = Record<string, string | undefined>

/** Billing is on only when STRIPE_SECRET_KEY is set; otherwise every billing call answers 503. */
export function loadBillingConfig(env: Env): BillingConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim()
  if (!secretKey) return undefined
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'debe ser una clave secreta de Stripe (sk_test_…, sk_live_… o rk_…)')
  }
  const rawBase = env.STRIPE_API_BASE?.trim()
  if (!rawBase) return { secretKey, apiBase: undefined }
  let url: URL
  try {
    url = new URL(rawBase)
  } catch {
    throw new ConfigError('STRIPE_API_BASE', `debe ser una URL como http://127.0.0.1:12111 (recibido "${rawBase}")`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('STRIPE_API_BASE', `debe empezar por http:// o https:// (recibido "${rawBase}")`)
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  const port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443
  return { secretKey, apiBase: { protocol, host: url.hostname, port } }
}
