// Loaded by `shapeguard coverage` into every Node process of the test command (NODE_OPTIONS
// --import): each records its guarded requests into the folder SHAPEGUARD_COVERAGE names.
import { recordCoverage } from 'shapeguard/testing'

const dir = process.env.SHAPEGUARD_COVERAGE
if (dir !== undefined && dir !== '') recordCoverage(undefined, { dir })
