import { v1Route } from "@/lib/v1/router";

// batchPets, declared in the route table (lib/v1/routes.ts): under `next start` too, where server.ts's dispatch to
// the route table is not in front, this path is not taken by app/v1/pets/[petId].
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route("/v1/pets/batch");
