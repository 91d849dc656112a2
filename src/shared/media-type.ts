// Media types as RFC 6838 bounds their names (127 characters each side), lower-cased: what a
// file field's `types` lists and what an upload's declared type must be to be kept.

const name = '[a-z0-9][a-z0-9!#$&^_.+-]{0,126}'

/** A media type: `image/png`. */
export const mediaType: RegExp = new RegExp(`^${name}/${name}$`)

/** A media type or a family: `image/png`, `image/*`. */
export const mediaRange: RegExp = new RegExp(`^${name}/(?:\\*|${name})$`)
