/**
 * Valid requests for every route of the service, for the route fuzz: each
 * recipe builds a request that the real API would answer with a 2xx, with
 * the credential and scopes the route needs, ids of records that exist at
 * that moment, and bodies whose values pass the property checks. Recipes
 * that need something to exist first (an archived record to restore, a
 * template to post events to, a code to exchange) make it through the API.
 *
 * A recipe is `(fixture, dice) => RequestSpec`: the fixture is the live
 * service, the dice are numbers drawn by fast-check, so a failing run
 * reproduces from the seed.
 *
 * The recipes live by API: record-recipes.ts, schema-recipes.ts,
 * service-recipes.ts, with what they share in recipe-kit.ts.
 */
import fc from 'fast-check'
import { ACCOUNT } from '../../core/http/auth.ts'
import { parseObjectType } from '../../core/objects/object-types.ts'
import type { Route } from '../../core/http/route.ts'
import { Dice, type Recipe } from './recipe-kit.ts'
import { objectRecipe, v4Recipe, propertyRecipe, pipelineRecipe } from './record-recipes.ts'
import { fuzzType, schemaRecipe, associationSchemaRecipe, associationV3Recipe } from './schema-recipes.ts'
import { otherRecipe } from './service-recipes.ts'

/** The recipe of valid requests for a route. */
export function validRecipe(route: Route): Recipe {
  if (route.path.startsWith('/crm/v3/objects/:objectType')) {
    // The objects API of a custom type, named any way the real API takes.
    return async (fx, dice) => {
      const type = await fuzzType(fx)
      return objectRecipe(route, type, ':objectType', (d) => d.pick([type, `p${ACCOUNT.hubId}_fuzzcar`, 'p_fuzzcar']))!(fx, dice)
    }
  }
  const schemas = /^\/(crm-object-schemas\/v3|crm\/v3)\/schemas/.exec(route.path)
  if (schemas) return schemaRecipe(route, schemas[0])
  const objects = /^\/crm\/v3\/objects\/([^/]+)/.exec(route.path)
  if (objects) return objectRecipe(route, parseObjectType(objects[1]!)!, objects[1]!)!
  const schema = associationSchemaRecipe(route) ?? associationV3Recipe(route)
  if (schema) return schema
  const v4 = /^\/crm\/v4\/(?:objects|associations)\/([^/:]+)/.exec(route.path)
  if (v4) return v4Recipe(route, parseObjectType(v4[1]!)!)!
  const properties = /^\/crm\/v3\/properties\/([^/]+)/.exec(route.path)
  if (properties) return propertyRecipe(route, parseObjectType(properties[1]!)!, properties[1]!)
  const pipelines = /^\/crm\/v3\/pipelines\/([^/]+)/.exec(route.path)
  if (pipelines) return pipelineRecipe(route, parseObjectType(pipelines[1]!) as 'tickets' | 'deals', pipelines[1]!)
  return otherRecipe(route) as Recipe
}

/** Dice for one recipe run. */
export const dice = fc.array(fc.nat(), { minLength: 12, maxLength: 12 }).map((values) => new Dice(values))
