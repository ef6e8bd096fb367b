"""JupyterHub's configuration for a hub that runs this course (graders/classroom/hub/hub.py starts it).

Everything that changes from one start to the next (ports, folders, who the users are) comes from
the settings file that hub.py writes, named by ATTN_HUB_SETTINGS; what stays is here:

* students and the instructor log in with their Unix password (PAM, JupyterHub's own default);
  each gets a JupyterLab server started as their own Unix user (LocalProcessSpawner, so the hub
  runs as root), from an environment that has nbgrader, NumPy, SymPy and Hypothesis but not this
  project (user-servers/: the Assignments tab and the exchange, no formgrader);
* the course's formgrader runs as a hub service named after the course, as the grader account,
  in the course folder with this project installed (nbgrader's "One Class, Multiple Graders" setup
  with one grader); the group formgrade-<course> may open it, and the instructor is in it;
* the hub listens on 127.0.0.1 only.
"""

import json
import os
from pathlib import Path

c = get_config()  # noqa: F821 - JupyterHub provides get_config

settings = json.loads(Path(os.environ["ATTN_HUB_SETTINGS"]).read_text(encoding="utf-8"))
state = Path(settings["state"])

c.JupyterHub.bind_url = f"http://127.0.0.1:{settings['port']}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = settings["hub_port"]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings['proxy_api_port']}"
c.ConfigurableHTTPProxy.command = [settings["proxy"]]
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every user's server

c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = {settings["instructor"], *settings["students"]}

c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [settings["servers_python_bin"] + "/jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 180  # JupyterLab's first start on a busy machine of two cores
c.Spawner.http_timeout = 180
c.Spawner.environment = {"JUPYTER_CONFIG_PATH": settings["servers_config"],
                         "ATTN_HUB_EXCHANGE": settings["exchange"],
                         "PATH": settings["servers_python_bin"] + ":/usr/local/bin:/usr/bin:/bin"}

course, service_port = settings["course_id"], settings["service_port"]
c.JupyterHub.load_groups = {f"formgrade-{course}": {"users": [settings["instructor"]]}}
c.JupyterHub.load_roles = [{"name": f"formgrade-{course}", "groups": [f"formgrade-{course}"],
                            "scopes": [f"access:services!service={course}"]}]
c.JupyterHub.services = [{
    "name": course,
    "url": f"http://127.0.0.1:{service_port}",
    "command": [settings["grader_python_bin"] + "/jupyterhub-singleuser", "--ServerApp.root_dir=" + settings["course_root"]],
    "user": settings["grader"],
    "cwd": settings["course_root"],
    "oauth_no_confirm": True,
    "environment": {"JUPYTER_CONFIG_PATH": settings["grader_config"],
                    "PATH": settings["grader_python_bin"] + ":/usr/local/bin:/usr/bin:/bin"},
}]
