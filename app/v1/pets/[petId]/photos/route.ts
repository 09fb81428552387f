import { v1Route } from "@/lib/v1/router";

// listPetPhotos, uploadPetPhoto and orderPetPhotos, declared in the route table (lib/v1/routes.ts).
export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = v1Route("/v1/pets/{petId}/photos");
