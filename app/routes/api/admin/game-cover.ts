import { removeGameCover, setGameCover } from "#app/domain/covers.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { readUpload } from "#app/http/covers.server.ts";

/**
 * PUT: the request body is the picture itself (JPEG, PNG or WebP, up to 10 MB), whatever its
 * declared type. DELETE: back to the generated art. Admins only.
 */
const cover = apiRoute({
  PUT: endpoint({
    access: "admin",
    handler: async ({ params, request }) => setGameCover(recordId(params.id, "game"), await readUpload(request)),
  }),
  DELETE: endpoint({ access: "admin", handler: async ({ params }) => removeGameCover(recordId(params.id, "game")) }),
});

export const loader = cover;
export const action = cover;
