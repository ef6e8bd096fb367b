"""The batch grader: a whole class, the work of ``attn-grade grade``. Instructors only.

    run.py       Options, run(): read a class's layout, grade its students in parallel sandboxes
                 (a process pool of job processes), within time budgets, noticing dead jobs
    cluster.py   the same on Dask workers (--cluster), the coordinator's side: the students' files
                 sent as bytes, every worker checked before anybody is graded
    remote.py    a Dask worker's side: what it is (versions, sandbox), the files laid out again,
                 grading in a job process of its own
    tls.py       who may connect to the cluster: TLS with mutual certificates (a throwaway one for
                 local:N), plain tcp:// only with --insecure-cluster, and then said
    preflight.py before a class is graded: can a sandbox start here, and does it isolate students
    summary.py   what a batch says when it has graded a class
    digest.py    what a student's result depends on, so that an unchanged one is kept

Students never get this folder (classroom/release/public.py ships whole rooms, and not this one).

What it writes in OUT, and how, is outfolder/'s.

May import: batch/, outfolder/, grading/, terminal/, kit/, bounded/, sandbox/ and the registry.
"""
