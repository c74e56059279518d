import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { JsonWebKeySet } from "../../domain/identity/Jwks.js"

/** The public keys of Parley's access tokens, at the well-known address (outside `/v1`). */
export class JwksApi extends HttpApiGroup.make("jwks")
  .add(
    HttpApiEndpoint.get("keys", "/.well-known/jwks.json")
      .addSuccess(JsonWebKeySet)
      .annotate(OpenApi.Summary, "The JSON Web Key Set that verifies access tokens")
      .annotate(
        OpenApi.Description,
        "Public. Match a token's `kid` header to a key; tokens are signed with EdDSA (Ed25519) unless the " +
          "operator configured ES256 or RS256. Cacheable (`Cache-Control: public, max-age=300`); during a rotation " +
          "both keys are listed until the old one's last token has expired."
      )
  )
  .annotate(OpenApi.Title, "JWKS")
  .annotate(OpenApi.Description, "Keys for services that verify Parley access tokens themselves.")
{}
