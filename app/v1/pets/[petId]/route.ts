import { getPetDeprecationHeaders, getPetHandler } from "@/lib/api/pets";
import { apiRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({ GET: getPetHandler }, { headers: getPetDeprecationHeaders });
