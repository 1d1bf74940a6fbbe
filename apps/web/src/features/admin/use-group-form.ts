import { useForm } from '@mantine/form';
import { createGroup, type Group as GroupData, renameGroup } from '@pakt/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useCurrentTenant } from '../../api/session-store';
import type { PickedPerson } from '../../ui/person-picker';
import { afterGroupChange, groupNameProblem, type GroupProblem, groupProblem } from './group-model';

/** A group's name and, for a new group, its first members. */
export interface GroupFormValues {
  readonly name: string;
  readonly members: PickedPerson[];
}

/**
 * What both group forms share: @mantine/form holds the name and the refusal shown on it. The
 * domain's length rule (groupNameProblem) is its rule, shown from the first save on and again
 * after every keystroke; the server's refusal of the name clears as the name changes. Any other
 * refusal is said above the form until the next save.
 */
function useGroupNameForm(initialValues: GroupFormValues) {
  const { t } = useTranslation();
  const form = useForm<GroupFormValues>({
    mode: 'controlled',
    initialValues,
    validate: (values) => {
      const problem = groupNameProblem(values.name);
      return problem ? { name: t(problem) } : {};
    },
  });
  const [submitted, setSubmitted] = useState(false);
  const [problem, setProblem] = useState<GroupProblem | null>(null);

  const setName = (name: string) => {
    form.setFieldValue('name', name);
    if (submitted) form.validateField('name');
  };

  const refuse = (found: GroupProblem) => {
    if (found.onName) form.setFieldError('name', t(found.key));
    else setProblem(found);
  };

  /** Runs `send` with the values once the name passes the domain's own schema: a 16th character never reaches the server. */
  const submitWith = (send: (values: GroupFormValues) => void) => (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    setProblem(null);
    form.onSubmit(send)(event);
  };

  return { form, problem, setName, refuse, submitWith };
}

/** The form for a new group: its name and first members. */
export function useCreateGroupForm({ onCreated }: { readonly onCreated: (group: GroupData) => void }) {
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const { form, problem, setName, refuse, submitWith } = useGroupNameForm({ name: '', members: [] });

  const create = useMutation({
    mutationFn: ({ groupName, members }: { groupName: string; members: readonly PickedPerson[] }) =>
      callApi(createGroup, { body: { groupName, userIds: members.map((person) => person.userId) } }),
    onSuccess: async (group) => {
      await afterGroupChange(queryClient, tenant?.tenantUuid, group);
      onCreated(group);
    },
    onError: (error) => refuse(groupProblem(error)),
  });

  const onSubmit = submitWith((values) => create.mutate({ groupName: values.name.trim(), members: values.members }));
  const setMembers = (members: PickedPerson[]) => form.setFieldValue('members', members);

  return { form, problem, create, setName, setMembers, onSubmit };
}

/** The form renaming an open group; an unchanged name closes it without asking the server. */
export function useRenameGroupForm({
  group,
  onDone,
  onGone,
}: {
  readonly group: GroupData;
  readonly onDone: (renamed: boolean) => void;
  readonly onGone: () => void;
}) {
  const tenant = useCurrentTenant();
  const queryClient = useQueryClient();
  const { form, problem, setName, refuse, submitWith } = useGroupNameForm({ name: group.groupName, members: [] });

  const rename = useMutation({
    mutationFn: (groupName: string) => callApi(renameGroup, { body: { groupId: group.groupId, groupName } }),
    onSuccess: async (renamed) => {
      await afterGroupChange(queryClient, tenant?.tenantUuid, renamed);
      onDone(true);
    },
    onError: (error) => {
      const found = groupProblem(error);
      refuse(found);
      if (found.gone) {
        void afterGroupChange(queryClient, tenant?.tenantUuid);
        onGone();
      }
    },
  });

  const onSubmit = submitWith((values) => {
    if (values.name.trim() === group.groupName) return onDone(false);
    rename.mutate(values.name.trim());
  });

  return { form, problem, rename, setName, onSubmit };
}
