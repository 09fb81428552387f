import { createPetHandler, listPetsHandler } from "@/lib/api/pets";
import { apiRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: listPetsHandler, POST: createPetHandler });
