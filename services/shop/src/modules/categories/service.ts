import type {
  AdminCategory,
  Category,
  CreateCategoryBody,
  UpdateCategoryBody,
} from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { categoryToDto, toAdminCategory } from './mapper.js';
import {
  findActiveCategories,
  findCategoriesWithCounts,
  insertCategory,
  lockCategoryTree,
  updateCategoryFields,
} from './repository.js';

export async function listCategories(db: Db): Promise<Category[]> {
  return (await findActiveCategories(db)).map(categoryToDto);
}

/** Every category, inactive ones too, with its product counts. */
export async function listAdminCategories(db: Db | Tx): Promise<AdminCategory[]> {
  return (await findCategoriesWithCounts(db)).map(toAdminCategory);
}

async function adminCategory(tx: Tx, id: number): Promise<AdminCategory> {
  const [found] = await findCategoriesWithCounts(tx, id);
  if (!found) throw notFound(`Category ${id} not found`);
  return toAdminCategory(found);
}

const nameTaken = (name: string) => conflict(`a category named "${name}" exists already`);

/** Rethrows a unique violation of the category's name as the 409 that names it. */
async function namingConflicts<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error) && name !== undefined) throw nameTaken(name);
    throw error;
  }
}

export function createCategory(
  db: Db,
  actor: Actor,
  body: CreateCategoryBody,
): Promise<AdminCategory> {
  const name = body.name.trim();
  return namingConflicts(name, () =>
    db.$transaction(async (tx) => {
      const parents = new Map((await lockCategoryTree(tx)).map((c) => [c.id, c.parentId]));
      const parentId = body.parent_id ?? null;
      if (parentId !== null && !parents.has(parentId)) {
        throw badRequest(`body.parent_id ${parentId} is not a category`);
      }
      const { id } = await insertCategory(tx, {
        name,
        description: body.description ?? '',
        parentId,
        sortOrder: body.sort_order ?? 0,
        active: body.active ?? true,
      });
      const category = await adminCategory(tx, id);
      await insertAuditEntry(tx, actor, {
        action: 'category.create',
        resource: 'category',
        resourceId: id,
        after: categoryFields(category),
      });
      return category;
    }),
  );
}

/**
 * Changes what the body sends. The tree is locked while a new parent is judged, so two changes
 * at once cannot together make a cycle that neither makes alone.
 */
export function updateCategory(
  db: Db,
  actor: Actor,
  id: number,
  body: UpdateCategoryBody,
): Promise<AdminCategory> {
  const name = body.name?.trim();
  return namingConflicts(name, () =>
    db.$transaction(async (tx) => {
      const parents = new Map((await lockCategoryTree(tx)).map((c) => [c.id, c.parentId]));
      if (!parents.has(id)) throw notFound(`Category ${id} not found`);
      if (body.parent_id !== undefined && body.parent_id !== null) {
        if (!parents.has(body.parent_id)) {
          throw badRequest(`body.parent_id ${body.parent_id} is not a category`);
        }
        for (let at: number | null = body.parent_id; at !== null; at = parents.get(at) ?? null) {
          if (at === id) {
            throw conflict(
              body.parent_id === id
                ? `category ${id} cannot be its own parent`
                : `category ${id} cannot have parent ${body.parent_id}: ${body.parent_id} is inside ${id}`,
            );
          }
        }
      }
      const before = categoryFields(await adminCategory(tx, id));
      const changes = {
        ...(name !== undefined ? { name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.parent_id !== undefined ? { parentId: body.parent_id } : {}),
        ...(body.sort_order !== undefined ? { sortOrder: body.sort_order } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
      };
      await updateCategoryFields(tx, id, changes);
      const category = await adminCategory(tx, id);
      const after = categoryFields(category);
      const changed = (Object.keys(after) as Array<keyof typeof after>).filter(
        (k) => after[k] !== before[k],
      );
      if (changed.length > 0) {
        await insertAuditEntry(tx, actor, {
          action: 'category.update',
          resource: 'category',
          resourceId: id,
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, after[k]])),
        });
      }
      return category;
    }),
  );
}

/** A category's own fields (no counts), as the audit records them. */
const categoryFields = ({
  product_count: _all,
  active_product_count: _active,
  ...fields
}: AdminCategory): Category => fields;
